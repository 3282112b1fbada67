/* "Did you mean" suggestions by Levenshtein distance. */
#include "support.h"

#include <string.h>

/* Optimal-string-alignment distance: insertions, deletions, substitutions
 * and transpositions of neighbours each cost 1. */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return SIZE_MAX;
	size_t m[64][64];
	for (size_t i = 0; i <= la; i++)
		m[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		m[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t best = m[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (m[i - 1][j] + 1 < best)
				best = m[i - 1][j] + 1;
			if (m[i][j - 1] + 1 < best)
				best = m[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    m[i - 2][j - 2] + 1 < best)
				best = m[i - 2][j - 2] + 1;
			m[i][j] = best;
		}
	}
	return m[la][lb];
}

const char *
diag_suggest(const char *name, const char *const *candidates, size_t n)
{
	size_t len = strlen(name);
	size_t limit = len / 3 < 3 ? len / 3 : 3;
	if (limit == 0)
		limit = 1;
	const char *best = NULL;
	size_t best_d = limit + 1;
	for (size_t i = 0; i < n; i++) {
		if (!candidates[i] || strcmp(candidates[i], name) == 0)
			continue;
		/* Lengths further apart than the best so far cannot be closer. */
		size_t lc = strlen(candidates[i]);
		if ((lc > len ? lc - len : len - lc) >= best_d)
			continue;
		size_t dist = edit_distance(name, candidates[i]);
		if (dist < best_d) {
			best_d = dist;
			best = candidates[i];
		}
	}
	return best;
}
