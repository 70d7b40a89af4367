export class CreatedIdDto {
  /** The id of what was created; for sends, the message id (the network's own format). */
  id!: string;
}
