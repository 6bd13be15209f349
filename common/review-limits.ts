/** How long a review's texts may be: the form's hints and limits and the server's checks (server/reviews/review.inputs.ts). */
export const reviewLimits = { textMin: 10, textMax: 2000, replyMax: 1000, reasonMax: 500 } as const;
