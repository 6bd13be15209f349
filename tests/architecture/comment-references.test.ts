/**
 * A comment cites what the repository holds: every Markdown file a comment in app/, server/ or common/ names
 * must be in the repository (a path from the root or from the file's folder, or a name one of its files has),
 * and every anchor into docs/rules.md must be one of its headings. A comment pointing at a page nobody can
 * open (a brief kept elsewhere) fails here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const checkedFolders = ["app", "server", "common"];

const repositoryFiles = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
const repositoryNames = new Set(repositoryFiles.map((file) => path.posix.basename(file)));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

const rulesAnchors = new Set(
  fs
    .readFileSync(path.join(root, "docs/rules.md"), "utf8")
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => anchorOf(line.replace(/^#+ /, ""))),
);

/** The text of every comment in a source, found by TypeScript's parser (not inside strings or templates). */
export function commentsOf(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const starts = new Set<number>();
  const comments: string[] = [];
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (starts.has(range.pos)) continue;
      starts.add(range.pos);
      comments.push(source.slice(range.pos, range.end));
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(source, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(source, node.getEnd()));
    node.forEachChild(visit);
  };
  visit(file);
  collect(ts.getLeadingCommentRanges(source, file.endOfFileToken.getFullStart()));
  return comments;
}

/** What is wrong with the Markdown files a comment of `file` names, one line each. */
export function brokenReferences(file: string, comment: string, exists: (candidate: string) => boolean): string[] {
  const broken: string[] = [];
  for (const [, name = "", anchor] of comment.matchAll(/([\w./-]*[\w-]\.md)(?:#([\w-]+))?/g)) {
    const candidates = [path.posix.normalize(name), path.posix.normalize(path.posix.join(path.posix.dirname(file), name))];
    const found = candidates.some(exists) || (!name.includes("/") && repositoryNames.has(name));
    if (!found) broken.push(`${file}: names ${name}, which the repository does not have`);
    else if (anchor && name.endsWith("docs/rules.md") && !rulesAnchors.has(anchor)) broken.push(`${file}: docs/rules.md has no heading #${anchor}`);
  }
  return broken;
}

const inRepository = (candidate: string) => repositoryFiles.includes(candidate);

test("the scan finds comments and not strings, and knows the repository's files from others", () => {
  const source = 'const a = "SPEC.md"; // see docs/rules.md#cart-limits\n/** DECISIONS.md */\nconst b = `x ${1} y`; // README.md\n';
  const comments = commentsOf("server/x.ts", source);
  expect(comments).toEqual(["// see docs/rules.md#cart-limits", "/** DECISIONS.md */", "// README.md"]);
  expect(comments.flatMap((comment) => brokenReferences("server/x.ts", comment, inRepository))).toEqual([
    "server/x.ts: names DECISIONS.md, which the repository does not have",
  ]);
  expect(brokenReferences("server/x.ts", "// docs/rules.md#no-such-rule", inRepository)).toEqual([
    "server/x.ts: docs/rules.md has no heading #no-such-rule",
  ]);
});

test("every comment in app/, server/ and common/ names only files the repository has", () => {
  const sources = repositoryFiles.filter((file) => checkedFolders.some((folder) => file.startsWith(`${folder}/`)) && /\.(ts|tsx)$/.test(file));
  expect(sources.length).toBeGreaterThan(300);
  const broken = sources.flatMap((file) => {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    return commentsOf(file, source).flatMap((comment) => brokenReferences(file, comment, inRepository));
  });
  expect(broken).toEqual([]);
});
