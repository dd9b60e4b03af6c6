/* view.h: the entry point of `raycompact view` (viewer.h holds the rest). */
#ifndef RC_VIEW_H
#define RC_VIEW_H

/* `raycompact view [options]`: argv[0] is "view"; returns the exit code. */
int cmd_view(int argc, char **argv);

#endif /* RC_VIEW_H */
