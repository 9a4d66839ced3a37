import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Braces, Copy, FilePlus2, Eraser } from 'lucide-react';
import { ForgeHttpError, generatedFileName, UI_TEXT } from '@forge/shared';
import { forgeClient } from '@/lib/api.ts';
import { useProject } from '@/lib/project-context.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle, CardDescription } from '@/components/ui/card.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { EmptyState, Mono, PageFrame } from '@/components/layout/page.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import {
  CODE_KINDS,
  DEFAULT_NAMES,
  generateCode,
  KIND_DESCRIPTIONS,
  KIND_LABELS,
  type CodeKind,
} from '../templates.ts';

const reasonOf = (error: unknown): string =>
  error instanceof ForgeHttpError
    ? error.serverMessage
    : error instanceof Error
      ? error.message
      : String(error);

interface Generated {
  kind: CodeKind;
  code: string;
}

/** Insert: a new file `generated-code-{timestamp}.js` in the current project (spec §9). */
function useInsertGenerated() {
  const { project } = useProject();
  const { toast } = useToast();
  return useMutation({
    mutationFn: async (content: string) => {
      const path = generatedFileName(Date.now());
      return forgeClient.request('fileCreate', { body: { path, content, project: project ?? undefined } });
    },
    onSuccess: (answer) => {
      toast({ title: `Inserted ${answer.path}`, description: project ? `Into ${project}.` : undefined });
    },
    onError: (error) => {
      toast({ title: UI_TEXT.insertFailed, description: reasonOf(error), variant: 'destructive' });
    },
  });
}

export function CodeGeneratorPage() {
  const id = useId();
  const { toast } = useToast();
  const [name, setName] = useState('');
  const [generated, setGenerated] = useState<Generated | null>(null);
  const insert = useInsertGenerated();
  const { project } = useProject();

  const generate = (kind: CodeKind) => {
    try {
      setGenerated({ kind, code: generateCode(kind, name) });
    } catch (error) {
      toast({ title: UI_TEXT.generationFailed, description: reasonOf(error), variant: 'destructive' });
    }
  };

  const copy = async () => {
    if (!generated) return;
    try {
      await navigator.clipboard.writeText(generated.code);
      toast({ title: 'Copied to the clipboard' });
    } catch (error) {
      toast({ title: 'Copy failed', description: reasonOf(error), variant: 'destructive' });
    }
  };

  const hasCode = generated !== null;

  return (
    <PageFrame
      title="Code Generator"
      description="Components, API routes, functions and schemas from a name, ready to copy or insert."
    >
      <Card>
        <CardContent className="flex flex-col gap-3 md:flex-row md:items-end">
          <div className="flex flex-1 flex-col gap-1.5">
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input
              id={`${id}-name`}
              value={name}
              placeholder={`e.g. ${DEFAULT_NAMES.component} (left empty: a default per kind)`}
              onChange={(e) => setName(e.target.value)}
              className="font-mono"
              spellCheck={false}
            />
          </div>
          <div role="group" aria-label="Generate" className="flex flex-wrap gap-2">
            {CODE_KINDS.map((kind) => (
              <Tooltip key={kind}>
                <TooltipTrigger asChild>
                  <Button
                    variant={generated?.kind === kind ? 'secondary' : 'outline'}
                    onClick={() => generate(kind)}
                  >
                    {KIND_LABELS[kind]}
                  </Button>
                </TooltipTrigger>
                <TooltipContent>{KIND_DESCRIPTIONS[kind]}</TooltipContent>
              </Tooltip>
            ))}
          </div>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 pb-3">
          <div className="flex min-w-0 flex-col gap-1">
            <CardTitle>{generated ? `${KIND_LABELS[generated.kind]} code` : 'Generated code'}</CardTitle>
            <CardDescription>
              Insert adds it to {project ? <Mono>{project}</Mono> : 'the current project'} as{' '}
              <Mono>generated-code-&lt;timestamp&gt;.js</Mono>.
            </CardDescription>
          </div>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={!hasCode} onClick={() => void copy()}>
              <Copy />
              Copy
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={!hasCode || insert.isPending}
              onClick={() => generated && insert.mutate(generated.code)}
            >
              <FilePlus2 />
              Insert
            </Button>
            <Button variant="ghost" size="sm" disabled={!hasCode} onClick={() => setGenerated(null)}>
              <Eraser />
              Clear
            </Button>
          </div>
        </CardHeader>
        <CardContent className="pt-0">
          {generated ? (
            <pre
              aria-label="Generated code"
              className="max-h-[60vh] overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed"
            >
              <code>{generated.code}</code>
            </pre>
          ) : (
            <EmptyState icon={Braces} title="Nothing generated yet">
              Type a name (any style: <Mono>order item</Mono>, <Mono>OrderItem</Mono>) and pick what to
              generate.
            </EmptyState>
          )}
        </CardContent>
      </Card>
    </PageFrame>
  );
}
