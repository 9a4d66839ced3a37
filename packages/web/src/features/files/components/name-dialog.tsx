import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { nameProblem } from '../tree.ts';

export interface NameDialogProps {
  open: boolean;
  title: string;
  description?: string;
  /** Label of the text field. */
  fieldLabel?: string;
  initialValue?: string;
  placeholder?: string;
  /** docs/product.md#file-tree-and-explorer: "Create"; a rename says "Rename". */
  submitLabel?: string;
  /** Accept a project-relative path ("src/new.ts") instead of a bare name. */
  allowFolders?: boolean;
  /** While the call runs: the buttons wait. */
  busy?: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}

/**
 * Asks for a file or folder name; Create stays off until the name is usable (docs/product.md#validation:
 * non-blank).
 */
export function NameDialog({ open, onCancel, ...props }: NameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      {/* Remounted per opening, so the field starts from the initial value each time. */}
      {open ? <NameForm onCancel={onCancel} {...props} /> : null}
    </Dialog>
  );
}

function NameForm({
  title,
  description,
  fieldLabel = 'Name',
  initialValue = '',
  placeholder,
  submitLabel = 'Create',
  allowFolders = false,
  busy = false,
  onSubmit,
  onCancel,
}: Omit<NameDialogProps, 'open'>) {
  const [value, setValue] = useState(initialValue);
  const [touched, setTouched] = useState(false);
  const id = useId();
  const problem = nameProblem(value, { allowFolders });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem || busy) return;
    onSubmit(value.trim());
  };

  // Without a description, say so explicitly (Radix would point at a missing element).
  return (
    <DialogContent {...(description ? {} : { 'aria-describedby': undefined })}>
      <form onSubmit={submit} className="grid gap-4">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? <DialogDescription>{description}</DialogDescription> : null}
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>{fieldLabel}</Label>
          <Input
            id={`${id}-name`}
            value={value}
            placeholder={placeholder}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            aria-invalid={touched && problem ? true : undefined}
            aria-describedby={touched && problem ? `${id}-problem` : undefined}
            onChange={(e) => {
              setValue(e.target.value);
              setTouched(true);
            }}
            onFocus={(e) => {
              // Select the stem so typing replaces "index" but keeps ".ts".
              const dot = e.target.value.lastIndexOf('.');
              e.target.setSelectionRange(0, dot > 0 ? dot : e.target.value.length);
            }}
          />
          {touched && problem ? (
            <p id={`${id}-problem`} className="text-xs text-error">
              {problem}
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={Boolean(problem) || busy}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
