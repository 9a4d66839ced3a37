/**
 * A language model the user configured (`brain.provider`: any OpenAI-compatible chat completions
 * endpoint, such as a local Ollama or llama.cpp server). Forge works without one: every assistant
 * has a built-in answer, and a model only ever improves it.
 */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ModelRequest {
  messages: ModelMessage[];
  /** Called with the whole text so far each time more of a streamed reply arrives. */
  onDelta?: (textSoFar: string) => void;
  signal?: AbortSignal;
  /** Upper bound on the reply's length, in tokens. */
  maxTokens?: number;
  /** 0 for code, higher for chat. */
  temperature?: number;
}

export interface ModelClient {
  /** The configured model name, for logs and answers ("answered by llama3.2"). */
  readonly model: string;
  /** Where it is served (the key never appears here). */
  readonly url: string;
  /** The whole reply; rejects with ModelError when the endpoint fails or times out. */
  complete(request: ModelRequest): Promise<string>;
}

/** A model call that failed: unreachable, refused, timed out, or answered something unreadable. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}
