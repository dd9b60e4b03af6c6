/* test_policy.c: auto's policy tables. The built-in ones parse for their backend; malformed
 * tables (JSON errors, wrong types, unknown keys, values out of range, algorithms the backend
 * lacks) are refused with SC_ERR_POLICY and a reason, through sc_policy_check, a file named in
 * sc_options.policy and $SC_POLICY, with the output untouched; a path that is not a regular
 * file (a FIFO, a device, a directory) is refused at once, without waiting on the FIFO; every
 * prefix and many random mutations of a good table are answered without a crash. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkfifo */
#include "test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int checks = 0;

static const char k_good[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"t\", \"backend\": \"cpu\",\n"
    " \"unknown_removed\": 0.5, \"source\": \"test\", \"grid\": {\"n\": [1, 2]},\n"
    " \"rules\": [{\"when\": {\"n_min\": 0, \"n_max\": 100, \"elem_min\": 1, \"elem_max\": 8,\n"
    "   \"removed_min\": 0, \"removed_max\": 0.5, \"list\": false, \"stable\": true},\n"
    "   \"algo\": \"horn\", \"tile\": 32, \"scan\": \"blelloch\", \"note\": \"x\"},\n"
    "  {\"when\": {\"list\": true}, \"algo\": \"redzone\", \"gain\": 1.25},\n"
    "  {\"algo\": \"serial\"}]}\n";

#define HEAD "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"t\", "
#define CPU  HEAD "\"backend\": \"cpu\", "

/* Each must be refused for the CPU backend; the comment says what is wrong. */
static const char *const k_bad[] = {
    "",                                                    /* empty */
    "{",                                                   /* truncated */
    "[]",                                                  /* not an object */
    "null",                                                /* not an object */
    "{}",                                                  /* nothing */
    "{\"format\": \"other\"}",                             /* wrong format */
    "{\"format\": \"raycompact-policy\", \"version\": 2}", /* unknown version */
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"backend\": \"cpu\", \"rules\": []}",
    HEAD "\"backend\": \"gpu\", \"rules\": [{\"algo\": \"serial\"}]}",   /* bad backend */
    HEAD "\"backend\": \"cuda\", \"rules\": [{\"algo\": \"cub\"}]}",     /* not the CPU's */
    HEAD "\"rules\": [{\"algo\": \"serial\"}]}",                         /* no backend */
    CPU "\"rulez\": [], \"rules\": [{\"algo\": \"serial\"}]}",           /* unknown key */
    CPU "\"rules\": {\"algo\": \"serial\"}}",                            /* rules not an array */
    CPU "\"rules\": []}",                                                /* no rule */
    CPU "\"rules\": [1]}",                                               /* rule not an object */
    CPU "\"rules\": [{\"when\": {}}]}",                                  /* no algo */
    CPU "\"rules\": [{\"algo\": 3}]}",                                   /* algo not a string */
    CPU "\"rules\": [{\"algo\": \"fastest\"}]}",                         /* unknown algorithm */
    CPU "\"rules\": [{\"algo\": \"auto\"}]}",                            /* auto itself */
    CPU "\"rules\": [{\"algo\": \"single-pass\"}]}",                     /* CUDA only */
    CPU "\"rules\": [{\"algo\": \"serial\", \"tile\": 64}]}",            /* no tile there */
    CPU "\"rules\": [{\"algo\": \"horn\", \"tile\": 48}]}",              /* tile not 2^k */
    CPU "\"rules\": [{\"algo\": \"horn\", \"tile\": 4096}]}",            /* tile too large */
    CPU "\"rules\": [{\"algo\": \"horn\", \"tile\": -32}]}",             /* negative */
    CPU "\"rules\": [{\"algo\": \"horn\", \"tile\": 64.5}]}",            /* fractional */
    CPU "\"rules\": [{\"algo\": \"horn\", \"tile\": \"64\"}]}",          /* string */
    CPU "\"rules\": [{\"algo\": \"horn\", \"scan\": \"fast\"}]}",        /* unknown scan */
    CPU "\"rules\": [{\"algo\": \"spataro\", \"scan\": \"blelloch\"}]}", /* no scan there */
    CPU "\"rules\": [{\"algo\": \"serial\", \"speed\": 1}]}",            /* unknown rule key */
    CPU "\"rules\": [{\"algo\": \"serial\", \"algo\": \"horn\"}]}",      /* key twice */
    CPU "\"rules\": [{\"when\": 5, \"algo\": \"serial\"}]}",             /* when not an object */
    CPU "\"rules\": [{\"when\": {\"n_maxx\": 5}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"n_min\": 9, \"n_max\": 5}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"elem_min\": 9, \"elem_max\": 5}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"removed_min\": 0.6, \"removed_max\": 0.5}, \"algo\": "
        "\"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"removed_max\": 1.5}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"removed_min\": -0.1}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"list\": \"yes\"}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"stable\": 1}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"n_max\": \"big\"}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"when\": {\"n_max\": 1e999}, \"algo\": \"serial\"}]}", /* infinite */
    CPU "\"rules\": [{\"when\": {\"n_max\": 5, \"n_max\": 6}, \"algo\": \"serial\"}]}",
    CPU "\"rules\": [{\"algo\": \"serial\", \"note\": 5}]}",             /* note not a string */
    CPU "\"rules\": [{\"algo\": \"serial\", \"gain\": 2}]}",             /* gain of a flag rule */
    CPU "\"rules\": [{\"algo\": \"redzone\", \"gain\": 0}]}",            /* gain not above 0 */
    CPU "\"rules\": [{\"algo\": \"redzone\", \"gain\": \"2\"}]}",        /* gain a string */
    CPU "\"unknown_removed\": 2, \"rules\": [{\"algo\": \"serial\"}]}",  /* out of [0, 1] */
    CPU "\"name\": \"u\", \"rules\": [{\"algo\": \"serial\"}]}",         /* name twice */
    HEAD "\"backend\": \"cpu\", \"rules\": [{\"algo\": \"serial\"}]} x", /* trailing text */
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"\", \"backend\": \"cpu\", "
    "\"rules\": [{\"algo\": \"serial\"}]}", /* empty name */
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": "
    "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", "
    "\"backend\": \"cpu\", \"rules\": [{\"algo\": \"serial\"}]}", /* name too long */
};

static void test_strings(void) {
    char msg[320];
    checks++;
    ASSERT_STATUS(sc_policy_check(k_good, strlen(k_good), SC_BACKEND_CPU, msg, sizeof msg), SC_OK,
                  "good table: %s", msg);
    for (size_t i = 0; i < sizeof k_bad / sizeof *k_bad; i++) {
        msg[0] = 0;
        sc_status s = sc_policy_check(k_bad[i], strlen(k_bad[i]), SC_BACKEND_CPU, msg, sizeof msg);
        checks++;
        ASSERT_STATUS(s, SC_ERR_POLICY, "bad table %zu accepted: %s", i, k_bad[i]);
        ASSERT_TRUE(msg[0] != 0, "bad table %zu: no reason given", i);
    }
    /* deep nesting and a NULL text */
    static char deep[20001];
    memset(deep, '[', sizeof deep - 1);
    checks++;
    ASSERT_STATUS(sc_policy_check(deep, strlen(deep), SC_BACKEND_CPU, msg, sizeof msg),
                  SC_ERR_POLICY, "deep nesting");
    ASSERT_STATUS(sc_policy_check(NULL, 0, SC_BACKEND_CPU, msg, sizeof msg), SC_ERR_POLICY, "NULL");
    /* the built-in tables, each for its backend only */
    static const char *const names[] = {"cpu", "sm_90", "cuda"};
    for (int i = 0; i < 3; i++) {
        const char *t = sc_policy_builtin(names[i]);
        sc_backend be = i == 0 ? SC_BACKEND_CPU : SC_BACKEND_CUDA;
        checks++;
        ASSERT_TRUE(t != NULL, "no built-in table %s", names[i]);
        if (!t) continue;
        ASSERT_STATUS(sc_policy_check(t, strlen(t), be, msg, sizeof msg), SC_OK, "built-in %s: %s",
                      names[i], msg);
        ASSERT_STATUS(
            sc_policy_check(t, strlen(t), i ? SC_BACKEND_CPU : SC_BACKEND_CUDA, msg, sizeof msg),
            SC_ERR_POLICY, "built-in %s on the other backend", names[i]);
    }
    ASSERT_TRUE(sc_policy_builtin("sm_0") == NULL, "unknown built-in name");
}

/* Every prefix, then random byte mutations: an answer, never a crash. */
static void test_fuzz(void) {
    const size_t len = strlen(k_good);
    size_t last_brace = (size_t)(strrchr(k_good, '}') - k_good);
    char msg[320], buf[sizeof k_good];
    for (size_t cut = 0; cut < len; cut++) {
        sc_status s = sc_policy_check(k_good, cut, SC_BACKEND_CPU, msg, sizeof msg);
        checks++;
        ASSERT_TRUE(cut > last_brace ? s == SC_OK : s == SC_ERR_POLICY, "prefix %zu: %s", cut,
                    sc_status_string(s));
    }
    uint64_t seed = 12345;
    int accepted = 0;
    for (int i = 0; i < 20000; i++) {
        memcpy(buf, k_good, len);
        int edits = 1 + (int)(test_rand(&seed) % 3);
        for (int e = 0; e < edits; e++)
            buf[test_rand(&seed) % len] = (char)(test_rand(&seed) & 0xff);
        sc_status s = sc_policy_check(buf, len, SC_BACKEND_CPU, msg, sizeof msg);
        checks++;
        ASSERT_TRUE(s == SC_OK || s == SC_ERR_POLICY, "mutation %d: %s", i, sc_status_string(s));
        accepted += s == SC_OK;
    }
    printf("mutations accepted: %d of 20000 (blanks and metadata edits)\n", accepted);
}

/* A malformed file through sc_options.policy and $SC_POLICY: SC_ERR_POLICY, a reason naming
 * the file, nothing written. */
static void expect_policy_error(sc_context *ctx, const sc_options *opt, const char *path,
                                const char *what) {
    uint32_t in[64], out[64];
    uint8_t flags[64];
    for (int i = 0; i < 64; i++) {
        in[i] = (uint32_t)i;
        flags[i] = i & 1;
    }
    memset(out, POISON, sizeof out);
    size_t kept = 77;
    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, in, flags, out, 64, 4, opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_POLICY, "%s", what);
    ASSERT_TRUE(strstr(sc_policy_error(ctx), path) != NULL, "%s: reason '%s' does not name %s",
                what, sc_policy_error(ctx), path);
    ASSERT_TRUE(test_untouched(out, 0, sizeof out, POISON) && kept == 77, "%s: output written",
                what);
}

static void test_files(void) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return;
    const char *bad = "test_policy_bad.json", *good = "test_policy_good.json";
    FILE *f = fopen(bad, "wb");
    FILE *g = fopen(good, "wb");
    if (!f || !g) {
        ASSERT_TRUE(0, "cannot write the test's tables");
        return;
    }
    fputs(k_bad[21], f); /* tile 48 */
    fputs(k_good, g);
    fclose(f);
    fclose(g);
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = bad;
    expect_policy_error(ctx, &opt, bad, "opt.policy malformed");
    ASSERT_TRUE(strstr(sc_policy_error(ctx), "rule 0") != NULL, "reason names the rule: %s",
                sc_policy_error(ctx));
    opt.policy = "no/such/policy.json";
    expect_policy_error(ctx, &opt, opt.policy, "opt.policy missing file");
    /* Not regular files: refused by what they are, before anything is read. Opening the FIFO
     * for reading would wait for a writer for good; alarm() ends the program instead. */
    static const struct {
        const char *path, *reason;
    } odd[] = {
        {".", "policy .: not a regular file (a directory)"},
        {"test_policy_fifo.json", "policy test_policy_fifo.json: not a regular file (a FIFO)"},
        {"/dev/null", "policy /dev/null: not a regular file (a character device)"},
        {"/dev/zero", "policy /dev/zero: not a regular file (a character device)"}};
    remove(odd[1].path);
    ASSERT_TRUE(mkfifo(odd[1].path, 0600) == 0, "mkfifo %s", odd[1].path);
    alarm(20);
    for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
        opt.policy = odd[i].path;
        expect_policy_error(ctx, &opt, odd[i].path, odd[i].path);
        ASSERT_TRUE(!strcmp(sc_policy_error(ctx), odd[i].reason), "%s: '%s', want '%s'",
                    odd[i].path, sc_policy_error(ctx), odd[i].reason);
    }
    setenv("SC_POLICY", odd[1].path, 1);
    expect_policy_error(ctx, NULL, odd[1].path, "$SC_POLICY a FIFO");
    unsetenv("SC_POLICY");
    alarm(0);
    remove(odd[1].path);
    /* $SC_POLICY when opt.policy is not set; opt.policy wins over it */
    setenv("SC_POLICY", bad, 1);
    expect_policy_error(ctx, NULL, bad, "$SC_POLICY malformed");
    opt.policy = good;
    uint32_t in[4] = {1, 2, 3, 4}, out[4];
    uint8_t flags[4] = {1, 0, 1, 1};
    size_t kept = 0;
    checks++;
    ASSERT_STATUS(sc_compact_flagged(ctx, SC_ALGO_AUTO, in, flags, out, 4, 4, &opt, &kept), SC_OK,
                  "opt.policy over $SC_POLICY");
    ASSERT_TRUE(kept == 3 && out[0] == 1 && out[1] == 3 && out[2] == 4, "result");
    ASSERT_TRUE(sc_policy_error(ctx)[0] == 0, "reason left over: %s", sc_policy_error(ctx));
    unsetenv("SC_POLICY");
    sc_context_destroy(ctx);
    remove(bad);
    remove(good);
}

int main(void) {
    test_strings();
    test_fuzz();
    test_files();
    return test_finish("test_policy", checks);
}
