/* The hand records' layout as the tools take it from their options:
 * the paper and the boards a page, set in the environment the html and
 * pdf writers read (plugins/paper.h). */
#ifndef DL_LAYOUT_H
#define DL_LAYOUT_H

/* --paper: "a4" or "letter" (any case), set as PAPERSIZE for the hand
 * records' writers, which read it as libpaper's programs do; another
 * name is a usage error.  Before any thread starts. */
void layout_paper(const char *name);
/* --per-page: the hand records' boards a page, "6", "4" or "1", set as
 * DL_PER_PAGE for the html and pdf writers (plugins/paper.h); another
 * value is a usage error.  Before any thread starts. */
void layout_per_page(const char *value);

#endif
