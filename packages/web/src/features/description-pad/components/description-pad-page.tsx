import { errorMessage as reasonOf } from '@/lib/api.ts';
import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Braces, Brain, Eraser, NotebookPen, Send } from 'lucide-react';
import { CODE_KINDS, type CodeKind, type GenerateResult } from '@forge/shared';
import { UI_TEXT } from '@forge/shared/schema-free';
import { forgeClient } from '@/lib/api.ts';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { useProject } from '@/lib/project-context.tsx';
import { useConnectionStatus, useSocket, useSocketMessages } from '@/lib/socket.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { useToast } from '@/components/ui/use-toast.tsx';
import { PageFrame } from '@/components/layout/page.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { HonestyMark } from '@/components/assistants/honesty-mark.tsx';
import { unknownReason } from '@/features/brain/components/brain-chat.tsx';
import { KIND_LABELS } from '@/features/code-generator/components/code-generator-page.tsx';
import { mergeChatMessage, type ChatLine } from '@/features/console/forge-chat.ts';
import { DESCRIPTION_TEMPLATES } from '../description-templates.ts';

/** What came back for the last description sent. */
type PadResponse =
  | { to: 'brain'; reply: string; note: string | null; unknown: boolean; needs?: string }
  | { to: 'forge'; replies: ChatLine[] }
  | { to: 'codegen'; kind: CodeKind; result: GenerateResult }
  | { to: 'brain' | 'forge' | 'codegen'; failed: string; reason: string };

function ReplyCard({ response }: { response: PadResponse }) {
  if ('failed' in response) {
    return (
      <Card role="alert" className="border-error/40">
        <CardHeader className="pb-4">
          <CardTitle className="text-error">{response.failed}</CardTitle>
          <CardDescription className="font-mono break-words">{response.reason}</CardDescription>
        </CardHeader>
      </Card>
    );
  }
  if (response.to === 'codegen') {
    // The code generator's own honesty mark: code that does what the description says, or a
    // skeleton that says so, each with its reason.
    return (
      <Card aria-label="Generated code reply" className="min-w-0">
        <CardHeader>
          <CardTitle>CodeGenBot</CardTitle>
          <CardDescription>
            {KIND_LABELS[response.kind]} · <span className="font-mono">{response.result.fileName}</span>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-sm">
          <HonestyMark mark={response.result.kind} reason={response.result.reason} />
          <pre
            aria-label="Generated code"
            className="max-h-[50vh] overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed"
          >
            <code>{response.result.code}</code>
          </pre>
        </CardContent>
      </Card>
    );
  }
  if (response.to === 'brain') {
    return (
      <Card aria-label="Brain reply">
        <CardHeader>
          <CardTitle>Brain</CardTitle>
          {response.note ? <CardDescription>{response.note}</CardDescription> : null}
        </CardHeader>
        <CardContent className="space-y-2 text-sm">
          <p className="whitespace-pre-wrap">{response.reply}</p>
          {response.unknown ? <HonestyMark mark="unknown" reason={unknownReason(response.needs)} /> : null}
        </CardContent>
      </Card>
    );
  }
  return (
    <Card aria-label="Forge replies">
      <CardHeader>
        <CardTitle>Forge</CardTitle>
        <CardDescription>
          Sent. Replies stream in below and into the{' '}
          <Link className="underline" to={APP_PATHS.console}>
            Console
          </Link>{' '}
          chat.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        {response.replies.length === 0 ? (
          <p className="text-muted-foreground">Waiting for Forge to answer…</p>
        ) : (
          response.replies.map((item) => (
            <div key={item.id} className="flex flex-col gap-0.5">
              <Badge variant="outline" className="capitalize">
                {item.role}
              </Badge>
              <p className="whitespace-pre-wrap" aria-busy={item.streaming || undefined}>
                {item.message}
              </p>
            </div>
          ))
        )}
      </CardContent>
    </Card>
  );
}

export function DescriptionPadPage() {
  const id = useId();
  const { toast } = useToast();
  const connected = useConnectionStatus() === 'connected';
  const { clientId } = useSocket();
  const { project } = useProject();
  const [text, setText] = useState('');
  const [response, setResponse] = useState<PadResponse | null>(null);

  const toBrain = useMutation({
    mutationFn: (message: string) =>
      forgeClient.request('brainHandshake', { body: project ? { message, project } : { message } }),
    onSuccess: (answer) =>
      setResponse({
        to: 'brain',
        reply: answer.reply,
        unknown: answer.certainty === 'unknown',
        ...(answer.needs ? { needs: answer.needs } : {}),
        note: answer.sessionExpired
          ? 'Session expired. Please re-authenticate.'
          : answer.authenticated
            ? 'Authenticated session'
            : null,
      }),
    onError: (error) => {
      toast({ title: UI_TEXT.requestFailed, description: reasonOf(error), variant: 'destructive' });
      setResponse({ to: 'brain', failed: UI_TEXT.requestFailed, reason: reasonOf(error) });
    },
  });

  const [codeKind, setCodeKind] = useState<CodeKind>('function');
  const toCodegen = useMutation({
    mutationFn: async ({ kind, description }: { kind: CodeKind; description: string }) => ({
      kind,
      result: await forgeClient.request('generate', { body: { kind, description, language: 'typescript' } }),
    }),
    onSuccess: ({ kind, result }) => setResponse({ to: 'codegen', kind, result }),
    onError: (error) => {
      toast({ title: UI_TEXT.generationFailed, description: reasonOf(error), variant: 'destructive' });
      setResponse({ to: 'codegen', failed: UI_TEXT.generationFailed, reason: reasonOf(error) });
    },
  });

  const toForge = useMutation({
    mutationFn: (q: string) => {
      const id = clientId();
      return forgeClient.request('chat', {
        body: { q, ...(id ? { clientId: id } : {}), ...(project ? { project } : {}) },
      });
    },
    onMutate: () => setResponse({ to: 'forge', replies: [] }),
    // Without a live connection to send them to, the daemon answers in the response itself.
    onSuccess: (answer) => {
      const replies = answer.replies;
      if (!replies?.length) return;
      setResponse((current) =>
        current && current.to === 'forge' && 'replies' in current
          ? {
              ...current,
              replies: [
                ...current.replies,
                ...replies.map((r, i) => ({ ...r, id: `http-${Date.now()}-${i}` })),
              ],
            }
          : current,
      );
    },
    onError: (error) => {
      toast({ title: UI_TEXT.forgeRequestFailed, description: reasonOf(error), variant: 'destructive' });
      setResponse({ to: 'forge', failed: UI_TEXT.forgeRequestFailed, reason: reasonOf(error) });
    },
  });

  // Forge answers over the socket (docs/product.md#websocket-messages); collect what arrives after a send
  // from this pad. A streamed reply (one replyId, the whole text so far each time) is one reply growing in
  // place.
  useSocketMessages((message) => {
    if (message.type !== 'chat' || message.role === 'user') return;
    setResponse((current) =>
      current && current.to === 'forge' && 'replies' in current
        ? { ...current, replies: mergeChatMessage(current.replies, message, Date.now()) }
        : current,
    );
  });

  const waiting = toBrain.isPending || toForge.isPending || toCodegen.isPending;
  const blank = text.trim().length === 0;

  return (
    <PageFrame
      title="Description Pad"
      description="Describe what you want built, then hand it to the brain, to Forge or to the code generator."
    >
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardContent className="flex flex-col gap-3">
            <div className="flex flex-col gap-1.5">
              <span className="text-xs text-muted-foreground">Quick templates</span>
              <div role="group" aria-label="Quick templates" className="flex flex-wrap gap-1.5">
                {DESCRIPTION_TEMPLATES.map((t) => (
                  <Button key={t.id} variant="outline" size="sm" onClick={() => setText(t.text)}>
                    {t.label}
                  </Button>
                ))}
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${id}-text`}>Description</Label>
              <Textarea
                id={`${id}-text`}
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder="What should be built or changed? Start from a template or write freely."
                className="min-h-72 font-mono text-[0.8rem]"
                spellCheck
              />
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button disabled={blank || waiting} onClick={() => !blank && toBrain.mutate(text.trim())}>
                <Brain />
                Send to Brain
              </Button>
              <Button
                variant="secondary"
                disabled={blank || waiting || !connected}
                onClick={() => !blank && toForge.mutate(text.trim())}
              >
                <Send />
                Send to Forge
              </Button>
              <div role="group" aria-label="Generate code" className="flex items-center gap-1">
                <select
                  aria-label="Code kind"
                  value={codeKind}
                  onChange={(e) => setCodeKind(e.target.value as CodeKind)}
                  className="h-9 rounded-md border bg-background px-2 text-sm"
                >
                  {CODE_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {KIND_LABELS[kind]}
                    </option>
                  ))}
                </select>
                <Button
                  variant="outline"
                  disabled={blank || waiting}
                  onClick={() => !blank && toCodegen.mutate({ kind: codeKind, description: text.trim() })}
                >
                  <Braces />
                  Generate code
                </Button>
              </div>
              <Button
                variant="ghost"
                disabled={waiting || (text === '' && response === null)}
                onClick={() => {
                  setText('');
                  setResponse(null);
                }}
              >
                <Eraser />
                Clear
              </Button>
              <span className="text-xs text-muted-foreground" aria-live="polite">
                {waiting
                  ? 'Sending…'
                  : !connected
                    ? 'Forge replies over the live connection, which is down: Send to Forge waits for it.'
                    : null}
              </span>
            </div>
          </CardContent>
        </Card>
        {response ? (
          <ReplyCard response={response} />
        ) : (
          <Card className="border-dashed shadow-none">
            <CardHeader className="pb-4">
              <CardTitle className="flex items-center gap-2">
                <NotebookPen aria-hidden="true" className="size-4 text-muted-foreground" />
                Replies
              </CardTitle>
              <CardDescription>
                The brain answers here. Forge answers here and in the Console chat; it can run commands such
                as build, fix and status. Generated code comes with what it is worth: implemented, or a
                skeleton and why.
              </CardDescription>
            </CardHeader>
          </Card>
        )}
      </div>
    </PageFrame>
  );
}
