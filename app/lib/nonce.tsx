import { createContext, useContext, type ReactNode } from "react";

/** The CSP nonce of this response (server only; the browser does not need it after load). */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce() {
  return useContext(NonceContext);
}
