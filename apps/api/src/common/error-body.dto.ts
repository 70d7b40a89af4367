export class ErrorBodyDto {
  /** The HTTP status code, repeated in the body. */
  status!: number;
  /** What went wrong, for people; stable texts for the common cases (e.g. `unauthorized`, `not found`). */
  detail!: string;
}
