import { useId } from 'react';
import { Switch } from '@/components/ui/switch.tsx';
import { useUpdateSetting, type BooleanSettingKey } from '../queries.ts';

export function SettingToggleRow({
  settingKey,
  label,
  description,
  checked,
}: {
  settingKey: BooleanSettingKey;
  label: string;
  description: string;
  checked: boolean;
}) {
  const id = useId();
  // One mutation per row, so a pending toggle disables only itself.
  const update = useUpdateSetting();
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <div className="flex min-w-0 flex-col gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-description`} className="text-xs text-muted-foreground">
          {description}
        </p>
      </div>
      <Switch
        id={id}
        aria-describedby={`${id}-description`}
        checked={checked}
        disabled={update.isPending}
        onCheckedChange={(value) => update.mutate({ key: settingKey, value })}
      />
    </div>
  );
}
