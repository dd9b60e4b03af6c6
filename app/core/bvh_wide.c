/* bvh_wide.c: the compressed 8-wide BVH of bvh_wide.h, collapsed from the binary tree of
 * bvh_build.c (Ylitie, Karras & Laine 2017, sec. 3). */
#include "bvh_build.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbox {
    float lo[3], hi[3];
} wbox;

/* One child of a wide node before it has a slot: an interior binary node, or `count` (at most
 * RC_WIDE_LEAF_MAX) primitives of a binary leaf from `first` (old order), and its box. */
typedef struct entry {
    uint32_t node; /* binary node */
    uint32_t first, count;
    uint32_t part; /* which of a leaf's parts */
    wbox box;
} entry;

typedef struct collapse {
    rc_bvh *bvh;
    rc_wide_node *wide;
    uint32_t num_wide;
    uint32_t *order; /* the new order: new primitive k is the old order[k] */
    uint32_t num_prims;
    uint32_t *log; /* pairs (binary leaf, its `first` before) make_node set (NULL: no log) */
    uint32_t num_log;
} collapse;

static wbox node_box(const rc_bvh_node *n) {
    wbox b;
    for (int a = 0; a < 3; a++) {
        b.lo[a] = n->lo[a];
        b.hi[a] = n->hi[a];
    }
    return b;
}

static void box_union(wbox *b, const wbox *o) {
    for (int a = 0; a < 3; a++) {
        if (o->lo[a] < b->lo[a]) b->lo[a] = o->lo[a];
        if (o->hi[a] > b->hi[a]) b->hi[a] = o->hi[a];
    }
}

static float area(const wbox *b) {
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    return dx * dy + dy * dz + dz * dx;
}

/* Slots a binary node takes as a child: one when interior, one for each RC_WIDE_LEAF_MAX
 * primitives of a leaf. */
static uint32_t slots_of(const rc_bvh_node *n) {
    return n->count == 0 ? 1u : (n->count + RC_WIDE_LEAF_MAX - 1) / RC_WIDE_LEAF_MAX;
}

/* The binary nodes below `root` that become a wide node's children: its two children, then,
 * while the slots allow, the interior child of the largest area replaced by its two (the
 * first of equal areas). A leaf root is its own one child. Returns the count. */
static int gather(const rc_bvh *bvh, uint32_t root, uint32_t kids[8]) {
    const rc_bvh_node *nodes = bvh->nodes;
    if (nodes[root].count > 0) {
        kids[0] = root;
        return 1;
    }
    int n = 2;
    kids[0] = nodes[root].first;
    kids[1] = nodes[root].first + 1;
    uint32_t used = slots_of(&nodes[kids[0]]) + slots_of(&nodes[kids[1]]);
    for (;;) {
        int best = -1;
        float best_area = -1.0f;
        for (int i = 0; i < n; i++) {
            const rc_bvh_node *c = &nodes[kids[i]];
            if (c->count > 0) continue;
            uint32_t more = slots_of(&nodes[c->first]) + slots_of(&nodes[c->first + 1]) - 1u;
            wbox b = node_box(c);
            if (used + more <= 8u && area(&b) > best_area) {
                best = i;
                best_area = area(&b);
            }
        }
        if (best < 0) return n;
        const rc_bvh_node *c = &nodes[kids[best]];
        used += slots_of(&nodes[c->first]) + slots_of(&nodes[c->first + 1]) - 1u;
        kids[best] = c->first;
        kids[n++] = c->first + 1;
    }
}

/* The children as slot entries; a leaf over RC_WIDE_LEAF_MAX is cut into even parts, each with
 * the box of its primitives (rc_prim_bounds, the padding the build's boxes have). */
static int entries_of(const rc_bvh *bvh, const uint32_t *kids, int nk, entry e[8]) {
    int ne = 0;
    for (int i = 0; i < nk; i++) {
        const rc_bvh_node *c = &bvh->nodes[kids[i]];
        uint32_t parts = slots_of(c);
        for (uint32_t j = 0; j < parts; j++) {
            entry *x = &e[ne++];
            x->node = kids[i];
            x->first = c->first;
            x->count = 0;
            x->part = j;
            x->box = node_box(c);
            if (c->count == 0 || parts == 1) {
                x->count = c->count;
                continue;
            }
            uint32_t a = c->count * j / parts, b = c->count * (j + 1) / parts;
            x->first = c->first + a;
            x->count = b - a;
            for (int k = 0; k < 3; k++) {
                x->box.lo[k] = INFINITY;
                x->box.hi[k] = -INFINITY;
            }
            for (uint32_t p = x->first; p < x->first + x->count; p++) {
                wbox pb;
                rc_prim_bounds(&bvh->prims[bvh->input_order ? bvh->ids[p] : p], pb.lo, pb.hi);
                box_union(&x->box, &pb);
            }
        }
    }
    return ne;
}

/* Sec. 3.2: the cost of entry i in slot s is how far its centre lies towards the slot's corner
 * of the node's box; the pairs are taken greedily, largest first (the first of equal ones), so
 * each child sits where a ray from the opposite corner meets it early. slot[i] = its slot. */
static void assign_slots(const entry *e, int ne, const wbox *nb, int slot[8]) {
    float cost[8][8];
    for (int i = 0; i < ne; i++)
        for (int s = 0; s < 8; s++) {
            float c = 0.0f;
            for (int a = 0; a < 3; a++) {
                float d = 0.5f * (e[i].box.lo[a] + e[i].box.hi[a]) - 0.5f * (nb->lo[a] + nb->hi[a]);
                c += (s >> a) & 1 ? d : -d;
            }
            cost[i][s] = c;
        }
    int taken = 0;
    for (int i = 0; i < ne; i++) slot[i] = -1;
    for (int round = 0; round < ne; round++) {
        int bi = -1, bs = -1;
        for (int i = 0; i < ne; i++) {
            if (slot[i] >= 0) continue;
            for (int s = 0; s < 8; s++)
                if (!((taken >> s) & 1) && (bi < 0 || cost[i][s] > cost[bi][bs])) {
                    bi = i;
                    bs = s;
                }
        }
        slot[bi] = bs;
        taken |= 1 << bs;
    }
}

/* Sec. 3.3: a power-of-two grid of 255 steps from the node box's low corner that reaches its
 * high corner, in the float arithmetic that decodes it (lo + q * scale); returns the biased
 * exponent. */
static uint8_t grid_exponent(float lo, float hi) {
    int ex = -126;
    float ext = hi - lo;
    if (ext > 0.0f) {
        (void)frexpf(ext / 255.0f, &ex); /* ext / 255 < 2^ex */
        if (ex < -126) ex = -126;
    }
    while (ex < 127 && lo + 255.0f * ldexpf(1.0f, ex) < hi) ex++;
    return (uint8_t)(ex + 127);
}

/* Quantise child boxes outwards: the decoded lo at or below the box's, hi at or above. */
static void quantise(rc_wide_node *w, int a, int s, const wbox *b) {
    const float scale = ldexpf(1.0f, (int)w->e[a] - 127), p = w->p[a];
    float ql = floorf((b->lo[a] - p) / scale), qh = ceilf((b->hi[a] - p) / scale);
    int lo = ql < 0.0f ? 0 : (ql > 255.0f ? 255 : (int)ql);
    int hi = qh < 0.0f ? 0 : (qh > 255.0f ? 255 : (int)qh);
    while (lo > 0 && p + (float)lo * scale > b->lo[a]) lo--;
    while (hi < 255 && p + (float)hi * scale < b->hi[a]) hi++;
    w->qlo[a][s] = (uint8_t)lo;
    w->qhi[a][s] = (uint8_t)hi;
}

/* Fill wide node w for binary node `root`: its children's slots, boxes and metas, its interior
 * children as the next nodes (their binary nodes into todo[], in slot order) and its leaf
 * primitives appended to the new order. Returns the interior children's count. */
static int make_node(collapse *c, uint32_t w, uint32_t root, uint32_t todo[8]) {
    rc_bvh *bvh = c->bvh;
    uint32_t kids[8];
    entry e[8];
    int slot[8], ne = entries_of(bvh, kids, gather(bvh, root, kids), e);
    wbox nb = e[0].box;
    for (int i = 1; i < ne; i++) box_union(&nb, &e[i].box);
    assign_slots(e, ne, &nb, slot);
    rc_wide_node *n = &c->wide[w];
    memset(n, 0, sizeof *n);
    for (int a = 0; a < 3; a++) {
        n->p[a] = nb.lo[a];
        n->e[a] = grid_exponent(nb.lo[a], nb.hi[a]);
    }
    int by_slot[8];
    for (int s = 0; s < 8; s++) by_slot[s] = -1;
    for (int i = 0; i < ne; i++) by_slot[slot[i]] = i;
    int inner = 0;
    n->child_base = c->num_wide;
    for (int s = 0; s < 8; s++) {
        const int i = by_slot[s];
        if (i < 0 || e[i].count > 0) continue;
        n->imask |= (uint8_t)(1u << s);
        n->meta[s] = (uint8_t)(0x20u | (24u + (uint32_t)s));
        todo[inner++] = e[i].node;
    }
    c->num_wide += (uint32_t)inner;
    /* leaf primitives in entry order, so the parts of one binary leaf stay one range */
    n->prim_base = c->num_prims;
    for (int i = 0; i < ne; i++) {
        if (e[i].count == 0) continue;
        const uint32_t off = c->num_prims - n->prim_base;
        n->meta[slot[i]] = (uint8_t)((((1u << e[i].count) - 1u) << 5) | off);
        rc_bvh_node *leaf = &bvh->nodes[e[i].node];
        if (e[i].part == 0) {
            if (c->log) {
                c->log[2 * c->num_log] = e[i].node;
                c->log[2 * c->num_log++ + 1] = leaf->first;
            }
            leaf->first = c->num_prims;
        }
        for (uint32_t p = e[i].first; p < e[i].first + e[i].count; p++)
            c->order[c->num_prims++] = p;
    }
    for (int i = 0; i < ne; i++)
        for (int a = 0; a < 3; a++) quantise(n, a, slot[i], &e[i].box);
    return inner;
}

/* The subtrees below wide depth PAR_DEPTH are collapsed in parallel where the tree has at least
 * PAR_MIN primitives; the result is the serial collapse's, byte for byte (test_bvh_wide). */
#define PAR_DEPTH 3
#define PAR_MIN   65536u

/* One subtree collapsed on its own, into arrays of its own: its root's record at wide[0], its
 * other nodes from 1, its primitives from 0; the binary leaves it renumbered in log. */
typedef struct subtree {
    uint32_t root; /* its binary node */
    collapse c;
    int failed;
    uint32_t w, nw, np; /* its root's wide node and the serial pass's counters there */
} subtree;

static int reserve(void **a, uint32_t *cap, uint32_t need, size_t size) {
    if (need <= *cap) return 0;
    uint32_t n = *cap ? *cap : 64u;
    while (n < need) n = n > UINT32_MAX / 2 ? need : 2 * n;
    void *g = realloc(*a, (size_t)n * size);
    if (!g) return -1;
    *a = g;
    *cap = n;
    return 0;
}

/* Collapse the wide subtree whose root is binary node t->root, as the serial pass would from
 * there, with indices local to it. */
static void collapse_subtree(rc_bvh *bvh, subtree *t) {
    collapse *c = &t->c;
    memset(c, 0, sizeof *c);
    c->bvh = bvh;
    uint32_t *stack = malloc((8 * (size_t)RC_BVH_STACK + 8) * sizeof *stack);
    uint32_t *wstack = malloc((8 * (size_t)RC_BVH_STACK + 8) * sizeof *wstack);
    uint32_t cap_w = 0, cap_p = 0, cap_l = 0;
    t->failed = !stack || !wstack;
    int top = 0;
    if (!t->failed) {
        stack[top] = t->root;
        wstack[top++] = c->num_wide++;
    }
    while (!t->failed && top > 0) {
        top--;
        const uint32_t root = stack[top], w = wstack[top];
        const uint32_t np = c->num_prims + 8 * RC_WIDE_LEAF_MAX;
        if (reserve((void **)&c->wide, &cap_w, c->num_wide + 8, sizeof *c->wide) != 0 ||
            reserve((void **)&c->order, &cap_p, np, sizeof *c->order) != 0 ||
            reserve((void **)&c->log, &cap_l, 2 * (c->num_log + 8), sizeof *c->log) != 0) {
            t->failed = 1;
            break;
        }
        uint32_t todo[8];
        const uint32_t base = c->num_wide;
        const int inner = make_node(c, w, root, todo);
        for (int i = inner - 1; i >= 0; i--) {
            stack[top] = todo[i];
            wstack[top++] = base + (uint32_t)i;
        }
    }
    free(stack);
    free(wstack);
}

static void subtree_free(subtree *t) {
    free(t->c.wide);
    free(t->c.order);
    free(t->c.log);
    t->c.wide = NULL;
    t->c.order = NULL;
    t->c.log = NULL;
}

/* The binary roots of the wide nodes at depth PAR_DEPTH (the interior children of the nodes
 * above), in any order; *n their count, NULL when out of memory or none. */
static subtree *find_subtrees(const rc_bvh *bvh, uint32_t *n) {
    uint32_t cnt = 1;
    uint32_t *level = malloc(sizeof *level);
    *n = 0;
    if (!level) return NULL;
    level[0] = 0;
    for (int d = 0; d < PAR_DEPTH && cnt > 0; d++) {
        uint32_t *next = malloc((size_t)cnt * 8 * sizeof *next), m = 0;
        if (!next) {
            free(level);
            return NULL;
        }
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t kids[8];
            entry e[8];
            int ne = entries_of(bvh, kids, gather(bvh, level[i], kids), e);
            for (int j = 0; j < ne; j++)
                if (e[j].count == 0) next[m++] = e[j].node;
        }
        free(level);
        level = next;
        cnt = m;
    }
    subtree *t = cnt ? calloc(cnt, sizeof *t) : NULL;
    if (t) {
        for (uint32_t i = 0; i < cnt; i++) t[i].root = level[i];
        *n = cnt;
    }
    free(level);
    return t;
}

/* Place subtree t where the serial pass reaches its root w, with the pass's counters at
 * nodes `nw` and primitives `np`: its nodes and primitives there, their indices shifted by as
 * much, its binary leaves' `first` too. Subtrees touch disjoint slots: placed in parallel. */
static void place_subtree(collapse *c, uint32_t w, uint32_t nw, uint32_t np, const subtree *t) {
    const uint32_t off = nw - 1u, poff = np;
    for (uint32_t j = 0; j < t->c.num_wide; j++) {
        rc_wide_node n = t->c.wide[j];
        n.child_base += off;
        n.prim_base += poff;
        c->wide[j == 0 ? w : off + j] = n;
    }
    memcpy(c->order + poff, t->c.order, (size_t)t->c.num_prims * sizeof *c->order);
    for (uint32_t i = 0; i < t->c.num_log; i++) c->bvh->nodes[t->c.log[2 * i]].first += poff;
}

static int build_wide(rc_bvh *bvh, int parallel) {
    free(bvh->wide);
    bvh->wide = NULL;
    bvh->num_wide = 0;
    collapse c = {bvh, NULL, 0, NULL, 0, NULL, 0};
    size_t nn = bvh->num_nodes ? bvh->num_nodes : 1, np = bvh->num_prims ? bvh->num_prims : 1;
    /* depth-first: one pending binary node a slot of each level */
    uint32_t *stack = malloc((8 * (size_t)RC_BVH_STACK + 8) * sizeof *stack);
    uint32_t *wstack = malloc((8 * (size_t)RC_BVH_STACK + 8) * sizeof *wstack);
    int *dstack = malloc((8 * (size_t)RC_BVH_STACK + 8) * sizeof *dstack);
    c.wide = malloc(nn * sizeof *c.wide);
    c.order = malloc(np * sizeof *c.order);
    /* taken now: once the pass below has set the binary leaves' `first`, nothing may fail */
    uint8_t *done = calloc((np + 7) / 8, 1);
    subtree *subs = NULL;
    uint32_t num_subs = 0;
    int failed = !stack || !wstack || !dstack || !c.wide || !c.order || !done;
    if (!failed && parallel && bvh->num_nodes > 0 && bvh->num_prims >= PAR_MIN) {
        subs = find_subtrees(bvh, &num_subs);
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t i = 0; i < (int64_t)num_subs; i++) collapse_subtree(bvh, &subs[i]);
        for (uint32_t i = 0; i < num_subs; i++) failed |= subs[i].failed;
        if (failed) /* the binary leaves as they were */
            for (uint32_t i = 0; i < num_subs; i++)
                for (uint32_t j = subs[i].c.num_log; j-- > 0;)
                    bvh->nodes[subs[i].c.log[2 * j]].first = subs[i].c.log[2 * j + 1];
    }
    if (!failed && bvh->num_nodes > 0) {
        int top = 0;
        stack[top] = 0;
        dstack[top] = 0;
        wstack[top++] = c.num_wide++;
        while (top > 0) {
            top--;
            const uint32_t root = stack[top], w = wstack[top];
            const int depth = dstack[top];
            if (num_subs && depth == PAR_DEPTH) {
                uint32_t k = 0;
                while (k < num_subs && subs[k].root != root) k++;
                if (k < num_subs) { /* its place now, its copy below */
                    subs[k].w = w;
                    subs[k].nw = c.num_wide;
                    subs[k].np = c.num_prims;
                    c.num_wide += subs[k].c.num_wide - 1u;
                    c.num_prims += subs[k].c.num_prims;
                    continue;
                }
            }
            uint32_t todo[8];
            const uint32_t base = c.num_wide;
            const int inner = make_node(&c, w, root, todo);
            for (int i = inner - 1; i >= 0; i--) { /* the first child next */
                stack[top] = todo[i];
                dstack[top] = depth + 1;
                wstack[top++] = base + (uint32_t)i;
            }
        }
    }
#pragma omp parallel for schedule(dynamic, 1) if (!failed)
    for (int64_t i = 0; i < (int64_t)num_subs; i++) {
        if (!failed) place_subtree(&c, subs[i].w, subs[i].nw, subs[i].np, &subs[i]);
        subtree_free(&subs[i]); /* placed: its arrays are not needed any more */
    }
    free(stack);
    free(wstack);
    free(dstack);
    for (uint32_t i = 0; i < num_subs; i++) subtree_free(&subs[i]);
    free(subs);
    if (failed) {
        free(c.wide);
        free(c.order);
        free(done);
        return -1;
    }
    /* the primitives and their ids into the new order in place (no third copy of them). Still
     * in input order (rc_bvh_build_deferred): slot i takes input primitive ids[order[i]], the
     * ids become those, and one walk puts the primitives there. */
    if (bvh->input_order) {
#pragma omp parallel for schedule(static) if (bvh->num_prims >= PAR_MIN)
        for (int64_t i = 0; i < (int64_t)bvh->num_prims; i++) c.order[i] = bvh->ids[c.order[i]];
        rc_bvh_permute(bvh->prims, NULL, c.order, bvh->num_prims, done);
        free(bvh->ids);
        bvh->ids = c.order;
        bvh->input_order = 0;
    } else {
        rc_bvh_permute(bvh->prims, bvh->ids, c.order, bvh->num_prims, done);
        free(c.order);
    }
    free(done);
    bvh->wide = c.wide;
    bvh->num_wide = c.num_wide;
    return 0;
}

int rc_bvh_build_wide(rc_bvh *bvh) {
    return build_wide(bvh, 1);
}

int rc_bvh_build_wide_serial(rc_bvh *bvh) {
    return build_wide(bvh, 0);
}

size_t rc_bvh_device_bytes(const rc_bvh *bvh) {
    size_t nodes = bvh->layout == RC_BVH_WIDE && bvh->wide ? bvh->num_wide * sizeof(rc_wide_node)
                                                           : bvh->num_nodes * sizeof(rc_bvh_node);
    return nodes + bvh->num_prims * sizeof(rc_prim);
}

static const char *const layout_names[RC_BVH_LAYOUT_COUNT] = {"binary", "wide"};

const char *rc_bvh_layout_name(uint32_t layout) {
    return layout < RC_BVH_LAYOUT_COUNT ? layout_names[layout] : "?";
}

int rc_bvh_layout_parse(const char *s, uint32_t *out) {
    for (uint32_t i = 0; i < RC_BVH_LAYOUT_COUNT; i++)
        if (strcmp(s, layout_names[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}
