import { vi } from 'vitest';

/** One request the app made through XMLHttpRequest; the test decides how it goes. */
export interface FakeXhrRequest {
  method: string;
  url: string;
  withCredentials: boolean;
  body: unknown;
  /** Report upload progress (bytes sent of total). */
  progress(loaded: number, total: number): void;
  /** Answer with a status and a body (objects are sent as JSON). */
  respond(status: number, body: unknown): void;
  /** The connection failed before any answer. */
  fail(): void;
  readonly aborted: boolean;
}

/**
 * Replaces the global XMLHttpRequest (which uploads use, for their progress events) with one whose
 * requests the test answers by hand.
 */
export function installFakeXhr() {
  const requests: FakeXhrRequest[] = [];

  class FakeXMLHttpRequest {
    status = 0;
    responseText = '';
    withCredentials = false;
    readonly upload = new EventTarget();
    readonly #events = new EventTarget();
    #method = '';
    #url = '';
    #aborted = false;

    open(method: string, url: string) {
      this.#method = method;
      this.#url = url;
    }
    setRequestHeader() {}
    addEventListener(type: string, listener: EventListenerOrEventListenerObject) {
      this.#events.addEventListener(type, listener);
    }
    abort() {
      this.#aborted = true;
      this.#events.dispatchEvent(new Event('abort'));
    }
    send(body: unknown) {
      const isAborted = () => this.#aborted;
      requests.push({
        method: this.#method,
        url: this.#url,
        withCredentials: this.withCredentials,
        body,
        get aborted() {
          return isAborted();
        },
        progress: (loaded, total) => {
          this.upload.dispatchEvent(
            Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }),
          );
        },
        respond: (status, answer) => {
          this.upload.dispatchEvent(new Event('load'));
          this.status = status;
          this.responseText = typeof answer === 'string' ? answer : JSON.stringify(answer);
          this.#events.dispatchEvent(new Event('load'));
        },
        fail: () => {
          this.#events.dispatchEvent(new Event('error'));
        },
      });
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return {
    requests,
    last(): FakeXhrRequest {
      const request = requests.at(-1);
      if (!request) throw new Error('no XMLHttpRequest was sent');
      return request;
    },
  };
}
