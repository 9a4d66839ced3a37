/**
 * The university family chat (spec §2.8: "local only, simulated replies"). There is no chat service
 * behind it: messages stay in this browser tab (sessionStorage) and every reply is generated here
 * and labelled as simulated, so nobody mistakes it for a person answering.
 */

export interface FamilyMessage {
  id: string;
  from: 'you' | 'simulated';
  text: string;
  /** Epoch milliseconds. */
  ts: number;
}

export const FAMILY_CHAT_STORAGE_KEY = 'forge.family-chat';
export const FAMILY_CHAT_KEEP = 200;

const quote = (text: string): string => {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine;
};

/** The simulated answer to `text`: deterministic, and honest about what this chat is. */
export function simulatedReply(text: string): string {
  const said = quote(text);
  if (/\?\s*$/.test(text.trim())) {
    return `You asked "${said}". This chat is local only and cannot answer; the brain chat on the dashboard can.`;
  }
  return `Noted: "${said}". Kept in this browser tab only; nobody else receives family chat messages.`;
}

export function readFamilyChat(storage: Pick<Storage, 'getItem'>): FamilyMessage[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(FAMILY_CHAT_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as FamilyMessage[]) : [];
  } catch {
    return [];
  }
}

/** The conversation after the user says `text`: their line and its simulated reply. */
export function withMessage(messages: readonly FamilyMessage[], text: string, now: number): FamilyMessage[] {
  const next: FamilyMessage[] = [
    ...messages,
    { id: `${now}-you-${messages.length}`, from: 'you', text, ts: now },
    { id: `${now}-sim-${messages.length + 1}`, from: 'simulated', text: simulatedReply(text), ts: now },
  ];
  return next.length > FAMILY_CHAT_KEEP ? next.slice(-FAMILY_CHAT_KEEP) : next;
}
