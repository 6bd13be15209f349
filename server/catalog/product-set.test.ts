import { expect, test } from "vitest";
import { intersectionOf, ProductSet, unionOf } from "./product-set";

const setOf = (size: number, members: number[]) => {
  const set = new ProductSet(size);
  for (const member of members) set.add(member);
  return set;
};
const membersOf = (set: ProductSet) => {
  const members: number[] = [];
  set.forEach((position) => members.push(position));
  return members;
};

test("members across word boundaries are kept, listed in order and counted", () => {
  const set = setOf(70, [69, 0, 31, 32, 63, 64]);
  expect(membersOf(set)).toEqual([0, 31, 32, 63, 64, 69]);
  expect(set.count()).toBe(6);
  expect(set.has(31)).toBe(true);
  expect(set.has(30)).toBe(false);
});

test("intersection, union and shared count agree", () => {
  const a = setOf(100, [1, 5, 40, 99]);
  const b = setOf(100, [5, 40, 41]);
  expect(membersOf(a.and(b))).toEqual([5, 40]);
  expect(a.countShared(b)).toBe(2);
  expect(membersOf(a.or(b))).toEqual([1, 5, 40, 41, 99]);
  expect(membersOf(unionOf(100, [a, b, setOf(100, [7])]))).toEqual([1, 5, 7, 40, 41, 99]);
  expect(membersOf(intersectionOf(100, [a, b, setOf(100, [40])]))).toEqual([40]);
  expect(unionOf(100, []).count()).toBe(0);
});

test("the full set and a complement never hold positions past the size", () => {
  expect(ProductSet.full(70).count()).toBe(70);
  expect(ProductSet.full(64).count()).toBe(64);
  expect(intersectionOf(33, []).count()).toBe(33);
  const complement = setOf(70, [0, 69]).complement();
  expect(complement.count()).toBe(68);
  expect(complement.has(0) || complement.has(69)).toBe(false);
  expect(membersOf(complement).at(-1)).toBe(68);
});
