/** The page where a guest who lost her order's e-mail asks for its link again (footer, help centre, withdrawal page). */
export const orderLookupPath = "/recesso";
