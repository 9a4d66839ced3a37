import { errorMessage as reasonOf } from '@/lib/api.ts';
import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Braces, Copy, FilePlus2, Eraser } from 'lucide-react';
import { CODE_KINDS, type CodeKind, type GenerateResult } from '@forge/shared';
import { generatedFileName, UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { useProject } from '@/lib/project-context.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle, CardDescription } from '@/components/ui/card.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { EmptyState, Mono, PageFrame } from '@/components/layout/page.tsx';
import { HonestyMark } from '@/components/assistants/honesty-mark.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { useEditorActions } from '@/features/editor/use-editor-actions.ts';

export const KIND_LABELS: Record<CodeKind, string> = {
  component: 'Component',
  api: 'API',
  function: 'Function',
  schema: 'Schema',
};

/** What each kind produces, for the button's tooltip. */
const KIND_DESCRIPTIONS: Record<CodeKind, string> = {
  component: 'A React component with typed props, showing each field',
  api: 'An Express router: list, read, create, update and delete, with validation',
  function:
    'A typed function with JSDoc: a real implementation when the task is in the catalogue, else a skeleton',
  schema: 'A zod schema and the type it infers',
};

const SOURCE_TITLES: Record<GenerateResult['source'], string> = {
  template: "Written by CodeGenBot's built-in generator",
  model: 'Written by the configured model (its code type-checked against the interface asked for)',
};

interface Generated {
  kind: CodeKind;
  result: GenerateResult;
}

/**
 * The inserted file's name: `generated-code-{timestamp}.js` (docs/product.md#constants). TypeScript keeps its
 * own extension (.ts, .tsx), so the project's build reads it as what it is.
 */
export function insertedFileName(result: GenerateResult, timestamp: number): string {
  const name = generatedFileName(timestamp);
  if (result.language === 'javascript') return name;
  return name.replace(/\.js$/, result.fileName.endsWith('.tsx') ? '.tsx' : '.ts');
}

/** Insert: a new file in the current project, then opened in the editor on the dashboard. */
function useInsertGenerated() {
  const { project } = useProject();
  const { toast } = useToast();
  const { openFile } = useEditorActions();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (result: GenerateResult) => {
      const path = insertedFileName(result, Date.now());
      return forgeClient.request('fileCreate', {
        body: { path, content: result.code, project: project ?? undefined },
      });
    },
    onSuccess: async (answer) => {
      toast({ title: `Inserted ${answer.path}`, description: project ? `Into ${project}.` : undefined });
      if (await openFile(answer.path)) await navigate(APP_PATHS.dashboard);
    },
    onError: (error) => {
      toast({ title: UI_TEXT.insertFailed, description: reasonOf(error), variant: 'destructive' });
    },
  });
}

export function CodeGeneratorPage() {
  const id = useId();
  const { toast } = useToast();
  const [description, setDescription] = useState('');
  const [typescript, setTypescript] = useState(false);
  const [generated, setGenerated] = useState<Generated | null>(null);
  const insert = useInsertGenerated();
  const { project } = useProject();

  const generate = useMutation({
    mutationFn: async (kind: CodeKind) => ({
      kind,
      result: await forgeClient.request('generate', {
        body: { kind, description, language: typescript ? 'typescript' : 'javascript' },
      }),
    }),
    onSuccess: setGenerated,
    onError: (error) => {
      toast({ title: UI_TEXT.generationFailed, description: reasonOf(error), variant: 'destructive' });
    },
  });

  const copy = async () => {
    if (!generated) return;
    try {
      await navigator.clipboard.writeText(generated.result.code);
      toast({ title: 'Copied to the clipboard' });
    } catch (error) {
      toast({ title: 'Copy failed', description: reasonOf(error), variant: 'destructive' });
    }
  };

  const hasCode = generated !== null;
  const blank = description.trim() === '';

  return (
    <PageFrame
      title="Code Generator"
      description="Components, API routes, functions and schemas from a description, ready to copy or insert."
    >
      <Card>
        <CardContent className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-description`}>Description</Label>
            <Textarea
              id={`${id}-description`}
              value={description}
              placeholder="e.g. a UserCard component with name: string, age?: number and an onSelect callback"
              onChange={(e) => setDescription(e.target.value)}
              className="min-h-20 font-mono"
              spellCheck={false}
            />
            <p className="text-xs text-muted-foreground">
              Name it (<Mono>a UserCard component</Mono>, <Mono>called sumPrices</Mono>) and list fields as{' '}
              <Mono>name: type</Mono>: string, number, boolean, Date, uuid, email, url, <Mono>T[]</Mono>,{' '}
              <Mono>&apos;a&apos; | &apos;b&apos;</Mono>; <Mono>name?</Mono> is optional.
            </p>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div role="group" aria-label="Generate" className="flex flex-wrap gap-2">
              {CODE_KINDS.map((kind) => (
                <Tooltip key={kind}>
                  <TooltipTrigger asChild>
                    <Button
                      variant={generated?.kind === kind ? 'secondary' : 'outline'}
                      disabled={blank || generate.isPending}
                      onClick={() => generate.mutate(kind)}
                    >
                      {KIND_LABELS[kind]}
                    </Button>
                  </TooltipTrigger>
                  <TooltipContent>{KIND_DESCRIPTIONS[kind]}</TooltipContent>
                </Tooltip>
              ))}
            </div>
            <div className="flex items-center gap-2">
              <Switch id={`${id}-typescript`} checked={typescript} onCheckedChange={setTypescript} />
              <Label htmlFor={`${id}-typescript`}>TypeScript</Label>
            </div>
          </div>
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 pb-3">
          <div className="flex min-w-0 flex-col gap-1">
            <CardTitle className="flex flex-wrap items-center gap-2">
              {generated ? `${KIND_LABELS[generated.kind]} code` : 'Generated code'}
              {generated ? (
                <>
                  <Mono aria-label="File name">{generated.result.fileName}</Mono>
                  <Badge
                    variant="outline"
                    aria-label="Written by"
                    title={SOURCE_TITLES[generated.result.source]}
                  >
                    {generated.result.source}
                  </Badge>
                </>
              ) : null}
            </CardTitle>
            <CardDescription>
              Insert adds it to {project ? <Mono>{project}</Mono> : 'the current project'} as{' '}
              <Mono>generated-code-&lt;timestamp&gt;.js</Mono> and opens it in the editor.
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
              onClick={() => generated && insert.mutate(generated.result)}
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
        <CardContent className="flex flex-col gap-3 pt-0">
          {generated ? (
            <>
              <HonestyMark mark={generated.result.kind} reason={generated.result.reason} />
              {generated.result.fields.length > 0 ? (
                <ul aria-label="Fields read" className="flex flex-wrap gap-1.5">
                  {generated.result.fields.map((f) => (
                    <li key={f.name}>
                      <Badge variant="secondary" className="font-mono">
                        {f.name}
                        {f.optional ? '?' : ''}: {f.type}
                      </Badge>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-xs text-muted-foreground">
                  No fields read from the description: list them as <Mono>name: type</Mono>.
                </p>
              )}
              <pre
                aria-label="Generated code"
                className="max-h-[60vh] overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed"
              >
                <code>{generated.result.code}</code>
              </pre>
            </>
          ) : (
            <EmptyState
              icon={Braces}
              title={generate.isPending ? 'CodeGenBot is writing…' : 'Nothing generated yet'}
            >
              Describe what you need (a name and its fields) and pick what to generate.
            </EmptyState>
          )}
        </CardContent>
      </Card>
    </PageFrame>
  );
}
