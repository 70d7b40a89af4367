import { IsDefined, IsInt, Max, Min } from 'class-validator';

export const MAX_SEND_INTERVAL_MS = 60_000;

/** Anti-ban pacing: the least time between two sends of the instance. */
export class PacingDto {
  /** Milliseconds between consecutive sends of this instance; 0 sends as fast as the network takes them. */
  @IsDefined({ message: 'is required' })
  @IsInt()
  @Min(0, { message: `must be from 0 to ${MAX_SEND_INTERVAL_MS}` })
  @Max(MAX_SEND_INTERVAL_MS, { message: `must be from 0 to ${MAX_SEND_INTERVAL_MS}` })
  minIntervalMs!: number;
}
