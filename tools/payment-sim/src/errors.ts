/** A refusal the simulated provider answers with its own error shape. */
export class SimError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
