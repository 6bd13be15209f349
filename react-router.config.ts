import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Page actions accept submissions from our own origin only (React Router checks Origin);
  // /api/* resource routes do their own check (server/http/same-origin.ts).
} satisfies Config;
