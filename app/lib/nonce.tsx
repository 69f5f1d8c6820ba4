/**
 * The per-request CSP nonce. The server provides the real value; in the browser it is
 * "" (browsers hide the nonce attribute, so "" is also what hydration sees).
 */
import { createContext, useContext, type ReactNode } from "react";

const NonceContext = createContext<string>("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
