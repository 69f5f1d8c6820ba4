/** negotiator 0.6.4 (the version compression 1.8 uses): only what the front calls. */
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    /** The client's most preferred of `available`; `preferred` breaks ties. */
    encoding(available: readonly string[], preferred?: readonly string[]): string | undefined;
  }
}
