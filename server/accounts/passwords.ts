/**
 * Password rules (docs/rules.md#accounts: at least 8 characters, both entries matching) plus a refusal of
 * common and easily guessed passwords, judged offline with zxcvbn-ts and its common-password,
 * Italian and English-language dictionaries (never a network lookup).
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

export const passwordLimits = { min: 8, max: 128 } as const;

/** zxcvbn's 0-4 scale: below 2 ("too guessable", "very guessable") is refused. */
export const minimumPasswordScore = 2;

export type PasswordProblem = "passwordTooShort" | "passwordTooLong" | "passwordTooCommon" | "passwordLikePersonal";

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Loaded and built on first use: the dictionaries take ~100 ms to index and 20-25 MB of the process's memory,
 * which a process that never sees a new password does not spend (decision 0075).
 */
function getEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-it")]).then(
    ([{ ZxcvbnFactory }, commonLanguage, italianLanguage]) =>
      new ZxcvbnFactory({
        dictionary: { ...commonLanguage.dictionary, ...italianLanguage.dictionary },
        graphs: commonLanguage.adjacencyGraphs,
      }),
  );
  return estimator;
}

/**
 * The first problem of a new password, or null. `personal` holds what the person typed elsewhere
 * (name, e-mail): a password built from them is refused with its own message.
 */
export async function findPasswordProblem(password: string, personal: readonly string[] = []): Promise<PasswordProblem | null> {
  if (password.length < passwordLimits.min) return "passwordTooShort";
  if (password.length > passwordLimits.max) return "passwordTooLong";
  const userInputs = personal.flatMap((value) => [value, ...value.toLowerCase().split(/[^\p{L}\p{N}]+/u)]).filter((value) => value.length >= 3);
  const result = (await getEstimator()).check(password, userInputs);
  if (result.score >= minimumPasswordScore) return null;
  const usesPersonal = result.sequence.some((match) => "dictionaryName" in match && match.dictionaryName === "userInputs");
  return usesPersonal ? "passwordLikePersonal" : "passwordTooCommon";
}
