/**
 * The one error the intent parser throws (docs/intents.md "Parsing"): nothing is ever parsed into a
 * silent Custom goal. `part` is the text not understood (a word, the rest of the sentence from the
 * point where no pattern matched, or for a JSON goal the path of the bad field), `reason` says why,
 * `position` is the character offset of `part` in the intent string when it has one.
 */
export class IntentParseError extends Error {
  override readonly name = 'IntentParseError';
  readonly code = 'INTENT_PARSE_ERROR';

  constructor(
    readonly part: string,
    readonly reason: string,
    readonly position?: number,
  ) {
    super(part === '' ? reason : `could not understand "${part}"${position === undefined ? '' : ` (at ${position})`}: ${reason}`);
  }
}
