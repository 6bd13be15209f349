import { createContext } from "react-router";
import type { PersonalPart } from "./personal-part";

/** Set by the root loader on a document request: the personal part the server renders and writes into the page. */
export const requestPersonalPart = createContext<PersonalPart | null>(null);
