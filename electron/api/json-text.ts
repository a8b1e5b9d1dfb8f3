/**
 * A request body already serialised, sent as exactly these bytes. The outbox stores a debit's body
 * as text when it accepts it, and every attempt must send that text and nothing else: given an
 * object, the client would serialise it again, and "the same bytes on every retry" would rest on
 * parsing and stringifying giving back the same text. The client still checks it against the
 * operation's body schema before sending.
 */
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}
