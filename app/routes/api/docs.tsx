import { useTranslation } from "react-i18next";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { getOpenApiDocument } from "#server/http/api/openapi.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/docs";

type Operation = {
  summary: string;
  security: unknown[];
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: { "application/json": { schema: unknown } } };
  responses: Record<string, { description: string; content: { "application/json": { schema: unknown } } }>;
};

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["api"] } satisfies MessagesHandle;

/** /api/docs: the reference of /api, read from the same OpenAPI document /api/openapi.json serves. */
export function loader({ url, context }: Route.LoaderArgs) {
  const { document } = getOpenApiDocument(context.get(shopContext).publicUrl);
  const endpoints = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => {
      const query = operation.parameters.filter((parameter) => parameter.in === "query");
      return {
        path,
        method: method.toUpperCase(),
        isAuthenticated: operation.security.length > 0,
        summary: operation.summary,
        query: query.length > 0 ? JSON.stringify(Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])), null, 2) : null,
        body: operation.requestBody ? JSON.stringify(operation.requestBody.content["application/json"].schema, null, 2) : null,
        response: JSON.stringify(operation.responses["200"]?.content["application/json"].schema, null, 2),
        errors: Object.entries(operation.responses)
          .filter(([status]) => status !== "200")
          .map(([status, answer]) => ({ status, description: answer.description })),
      };
    }),
  );
  const schemas = Object.entries(document.components.schemas).map(([name, schema]) => ({ name, json: JSON.stringify(schema, null, 2) }));
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "api.docs"),
    endpoints,
    schemas,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

function SchemaBlock({ title, json }: { title: string; json: string }) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer font-semibold text-brand-700">{title}</summary>
      <pre lang="en" className="mt-2 max-h-96 overflow-auto rounded-lg bg-stone-100 p-3 text-xs">
        {json}
      </pre>
    </details>
  );
}

export default function ApiDocsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { endpoints, schemas } = loaderData;
  return (
    <>
      <PageHeader title={t("api.docs.title")}>
        <p>{t("api.docs.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-10">
        <div className="prose-page max-w-3xl">
          <h2>{t("api.docs.conventionsTitle")}</h2>
          <ul>
            <li>{t("api.docs.conventionJson")}</li>
            <li>{t("api.docs.conventionAuth")}</li>
            <li>{t("api.docs.conventionErrors")}</li>
            <li>{t("api.docs.conventionCors")}</li>
          </ul>
          <p>
            <a href="/api/openapi.json">{t("api.docs.openApiLink")}</a>
          </p>
        </div>

        <h2 className="mt-10 mb-4 text-2xl font-bold">{t("api.docs.endpointsTitle")}</h2>
        <ul className="space-y-5">
          {endpoints.map((endpoint) => (
            <li
              key={`${endpoint.method} ${endpoint.path}`}
              id={`${endpoint.method}-${endpoint.path}`}
              className="rounded-2xl bg-white p-5 shadow-card"
            >
              <h3 className="flex flex-wrap items-center gap-3 text-lg font-bold">
                <span className="rounded bg-brand-700 px-2 py-0.5 font-mono text-sm text-white">{endpoint.method}</span>
                <code className="break-all">{endpoint.path}</code>
                <span className="rounded-full bg-stone-100 px-3 py-0.5 text-sm font-normal text-stone-800">
                  {endpoint.isAuthenticated ? t("api.docs.authUser") : t("api.docs.authPublic")}
                </span>
              </h3>
              <p lang="en" className="mt-2 text-stone-800">
                {endpoint.summary}
              </p>
              {endpoint.query ? <SchemaBlock title={t("api.docs.query")} json={endpoint.query} /> : null}
              {endpoint.body ? <SchemaBlock title={t("api.docs.body")} json={endpoint.body} /> : null}
              <SchemaBlock title={t("api.docs.response")} json={endpoint.response} />
              <details className="mt-3">
                <summary className="cursor-pointer font-semibold text-brand-700">{t("api.docs.errors")}</summary>
                <ul className="mt-2 list-disc pl-6 text-sm">
                  {endpoint.errors.map((error) => (
                    <li key={error.status}>
                      <span className="font-mono">{error.status}</span> <span lang="en">{error.description}</span>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ul>

        <h2 className="mt-10 mb-4 text-2xl font-bold">{t("api.docs.schemasTitle")}</h2>
        {schemas.map((schema) => (
          <SchemaBlock key={schema.name} title={schema.name} json={schema.json} />
        ))}
      </div>
    </>
  );
}
