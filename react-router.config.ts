import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Page actions accept submissions from our own origin only (React Router checks Origin);
  // resource routes that change something check it themselves (server/http/same-origin.ts; /api: api-http.ts).
} satisfies Config;
