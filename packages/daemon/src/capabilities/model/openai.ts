import type { Logger } from '../../logging/logger.ts';
import type { BrainProvider } from '../../config/schema.ts';
import { ModelError, type ModelClient, type ModelRequest } from './types.ts';

/** Connecting and the first token of the reply must come within this (a model still loading says so). */
export const MODEL_FIRST_TOKEN_TIMEOUT_MS = 30_000;
/** The whole reply must have arrived within this. */
export const MODEL_REPLY_TIMEOUT_MS = 120_000;
/** How much of an endpoint's error text is quoted in a ModelError. */
const ERROR_TEXT_LIMIT = 300;

export interface ModelClientOptions {
  firstTokenTimeoutMs?: number;
  replyTimeoutMs?: number;
}

/** What a streamed chunk of an OpenAI-compatible endpoint carries (only the fields read here). */
interface StreamChunk {
  choices?: Array<{
    delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown };
    message?: { content?: unknown };
    text?: unknown;
  }>;
  error?: unknown;
}

const errorText = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const { message, error } = value as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return message;
    if (error !== undefined) return errorText(error);
  }
  return null;
};

const seconds = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

const clip = (text: string): string =>
  text.length > ERROR_TEXT_LIMIT ? `${text.slice(0, ERROR_TEXT_LIMIT)}…` : text;

/** The text of a chunk's first choice: a streamed delta, or a whole message from a non-streaming server. */
function chunkText(chunk: StreamChunk): { text: string; activity: boolean } {
  const choice = chunk.choices?.[0];
  if (!choice) return { text: '', activity: false };
  const content = choice.delta?.content ?? choice.message?.content ?? choice.text;
  const text = typeof content === 'string' ? content : '';
  // A reasoning model "thinks" before it answers: that counts as the first token arriving.
  const thinking = choice.delta?.reasoning_content ?? choice.delta?.reasoning;
  return { text, activity: text !== '' || (typeof thinking === 'string' && thinking !== '') };
}

/**
 * The client of an OpenAI-compatible chat completions endpoint (`POST {url}/chat/completions`, as
 * served by Ollama, llama.cpp, vLLM, LM Studio and hosted APIs), or null when no provider is
 * configured. Replies are streamed (SSE); the key goes in `Authorization: Bearer` and nowhere else:
 * not in logs, not in error messages (an endpoint that echoes it back has it replaced by ***).
 */
export function createModelClient(
  provider: BrainProvider | null | undefined,
  logger: Logger,
  options: ModelClientOptions = {},
): ModelClient | null {
  if (!provider) return null;
  const { url, model, apiKey } = provider;
  const endpoint = `${url.replace(/\/+$/, '')}/chat/completions`;
  const firstTokenMs = options.firstTokenTimeoutMs ?? MODEL_FIRST_TOKEN_TIMEOUT_MS;
  const replyMs = options.replyTimeoutMs ?? MODEL_REPLY_TIMEOUT_MS;
  const scrub = (text: string): string => (apiKey ? text.split(apiKey).join('***') : text);

  async function complete(request: ModelRequest): Promise<string> {
    const controller = new AbortController();
    let stopped: 'first-token' | 'reply' | 'caller' | null = null;
    const stop = (why: NonNullable<typeof stopped>) => {
      stopped ??= why;
      controller.abort();
    };
    const firstTimer = setTimeout(() => stop('first-token'), firstTokenMs);
    const replyTimer = setTimeout(() => stop('reply'), replyMs);
    const onCallerAbort = () => stop('caller');
    if (request.signal?.aborted) stop('caller');
    else request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const started = performance.now();
    logger.debug({ url: endpoint, model, messages: request.messages.length }, 'model request');

    /** Translate whatever ended the call into a ModelError that says what happened. */
    const failure = (err: unknown): ModelError => {
      if (err instanceof ModelError) return err;
      if (stopped === 'first-token')
        return new ModelError(
          `The model ${model} at ${url} did not start answering within ${seconds(firstTokenMs)}.`,
        );
      if (stopped === 'reply')
        return new ModelError(
          `The model ${model} at ${url} did not finish its reply within ${seconds(replyMs)}.`,
        );
      if (stopped === 'caller') return new ModelError('The model request was cancelled.');
      const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
      const code = typeof cause?.code === 'string' ? cause.code : null;
      const why =
        code === 'ECONNREFUSED'
          ? 'connection refused (is the model server running?)'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? `the host name does not resolve (${code})`
            : typeof cause?.message === 'string'
              ? cause.message
              : (err as Error).message;
      return new ModelError(`Cannot reach the model at ${url}: ${scrub(why)}.`);
    };

    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'text/event-stream, application/json',
          ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({
          model,
          messages: request.messages,
          stream: true,
          ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        }),
        signal: controller.signal,
      });
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        let said: string | null = null;
        try {
          said = errorText(JSON.parse(body));
        } catch {
          said = body.trim() || null;
        }
        const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
        throw new ModelError(
          `The model at ${url} answered ${status}${said ? `: ${clip(scrub(said))}` : '.'}`,
          response.status,
        );
      }
      let text = '';
      const onText = (piece: { text: string; activity: boolean }) => {
        if (piece.activity) clearTimeout(firstTimer);
        if (piece.text === '') return;
        text += piece.text;
        request.onDelta?.(text);
      };
      const type = response.headers.get('content-type') ?? '';
      if (type.includes('text/event-stream') && response.body) {
        await readEvents(response.body, (data) => {
          let chunk: StreamChunk;
          try {
            chunk = JSON.parse(data) as StreamChunk;
          } catch {
            throw new ModelError(
              `The model at ${url} streamed something that is not JSON: ${clip(scrub(data))}`,
            );
          }
          if (chunk.error !== undefined) {
            throw new ModelError(
              `The model at ${url} reported an error: ${clip(scrub(errorText(chunk.error) ?? 'unknown error'))}`,
            );
          }
          onText(chunkText(chunk));
        });
      } else {
        // A server that ignores `stream: true` answers one JSON document once it is done.
        clearTimeout(firstTimer);
        const raw = await response.text();
        let chunk: StreamChunk;
        try {
          chunk = JSON.parse(raw) as StreamChunk;
        } catch {
          throw new ModelError(
            `The model at ${url} answered something that is not JSON: ${clip(scrub(raw))}`,
          );
        }
        onText(chunkText(chunk));
      }
      if (text.trim() === '')
        throw new ModelError(`The model ${model} at ${url} answered with an empty reply.`);
      logger.debug(
        { url: endpoint, model, ms: Math.round(performance.now() - started), chars: text.length },
        'model reply',
      );
      return text;
    } catch (err) {
      const error = failure(err);
      logger.debug(
        { url: endpoint, model, err: error.message, status: error.status },
        'model request failed',
      );
      throw error;
    } finally {
      clearTimeout(firstTimer);
      clearTimeout(replyTimer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return { model, url, complete };
}

/**
 * Read a server-sent event stream, calling `onData` with each event's data (its `data:` lines joined
 * by newlines) until the stream ends or an event's data is `[DONE]`.
 */
async function readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  let done = false;
  const dispatch = () => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') done = true;
    else onData(payload);
  };
  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    if (field !== 'data') return; // event:, id:, retry: say nothing a chat reply needs
    data.push(colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, ''));
  };
  const reader = body.getReader();
  let drained = false;
  try {
    while (!done) {
      const { value, done: ended } = await reader.read();
      buffer += decoder.decode(value, { stream: !ended });
      let newline: number;
      while (!done && (newline = buffer.search(/[\r\n]/)) >= 0) {
        // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
        if (buffer[newline] === '\r' && newline === buffer.length - 1 && !ended) break;
        const end = buffer[newline] === '\r' && buffer[newline + 1] === '\n' ? newline + 2 : newline + 1;
        line(buffer.slice(0, newline));
        buffer = buffer.slice(end);
      }
      if (ended) {
        drained = true;
        break;
      }
    }
    if (!done) {
      if (buffer !== '') line(buffer);
      dispatch();
    }
  } finally {
    // Stopped early ([DONE], or a chunk that failed): let the server know we are not reading on.
    if (!drained) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
