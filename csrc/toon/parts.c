/* parts.c: §2 channels and roles, §4 part names (channels, legacy names and
** words), §8.2 chain segment counts (engine/parts.js ROLES, UNDRAWN_ROLES,
** CHAIN_SEGMENTS as the text lists them). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toon.h"

static const char *const ROLES[] = {"head", "neck", "torso", "hips", "arm", "forearm", "hand", "leg", "shin",
                                    "foot", "tail", "ear", "wing", "fin", "claw", "snout", "nose", "hair",
                                    "hat", "eye", "brow"};
static const char *const PAIRED[] = {"arm", "forearm", "hand", "leg", "shin", "foot", "ear", "wing", "fin",
                                     "claw", "eye", "brow"};

static int in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i])) return 1;
    return 0;
}

int jt_role_known(const char *role) { return in_list(role, ROLES, sizeof ROLES / sizeof *ROLES); }
int jt_role_undrawn(const char *role) { return !strcmp(role, "neck"); }
int jt_role_paired(const char *role) { return in_list(role, PAIRED, sizeof PAIRED / sizeof *PAIRED); }
int jt_role_leg(const char *role) { return !strcmp(role, "leg") || !strcmp(role, "shin") || !strcmp(role, "foot"); }

int jt_role_chain(const char *role)  /* §8.2 CHAIN_SEGMENTS */
{
    if (!strcmp(role, "tail")) return 4;
    if (!strcmp(role, "torso") || !strcmp(role, "ear") || !strcmp(role, "hair")) return 2;
    return 0;
}

int jt_combine_of(int kind)
{
    if (kind == CH_SX || kind == CH_SY) return COMB_MUL;
    if (kind == CH_MOUTH || kind == CH_BLINK) return COMB_MAX;
    return COMB_ADD;
}

double jt_rest_of(int kind) { return kind == CH_SX || kind == CH_SY ? 1 : 0; }

static const char *const FIXED[JT_FIXED_CHANNELS] = {"dx", "dy", "sx", "sy", "rot", "mouth", "blink", "mood"};

/* §2 (clarified): ^(part|lift):[a-z]+(:(-1|1))?(#(0|[1-9][0-9]*))?$ */
int jt_channel_parse(const char *s, jt_part *out)
{
    memset(out, 0, sizeof *out);
    out->index = -1;
    for (int i = 0; i < JT_FIXED_CHANNELS; i++)
        if (!strcmp(s, FIXED[i])) { out->kind = i; return 0; }
    if (!strncmp(s, "part:", 5)) out->kind = CH_PART;
    else if (!strncmp(s, "lift:", 5)) out->kind = CH_LIFT;
    else return -1;
    const char *p = s + 5;
    size_t n = 0;
    while (p[n] >= 'a' && p[n] <= 'z') n++;
    if (!n || n >= sizeof out->role) return -1;
    memcpy(out->role, p, n);
    out->role[n] = 0;
    p += n;
    if (*p == ':') {
        if (p[1] == '1') { out->side = 1; p += 2; }
        else if (p[1] == '-' && p[2] == '1') { out->side = -1; p += 3; }
        else return -1;
    }
    if (*p == '#') {
        p++;
        if (*p == '0') { out->index = 0; p++; }
        else if (*p >= '1' && *p <= '9') {
            long v = 0;
            while (*p >= '0' && *p <= '9') {
                v = v * 10 + (*p++ - '0');
                if (v > 1000000000L) return -1;
            }
            out->index = (int)v;
        } else return -1;
    }
    return *p ? -1 : 0;
}

int jt_channel_format(const jt_part *p, char *buf, size_t cap)
{
    if (p->kind < CH_PART) return snprintf(buf, cap, "%s", FIXED[p->kind]);
    int n = snprintf(buf, cap, "%s:%s", p->kind == CH_LIFT ? "lift" : "part", p->role);
    if (p->side) n += snprintf(buf + n, cap > (size_t)n ? cap - (size_t)n : 0, ":%d", p->side);
    if (p->index >= 0) n += snprintf(buf + n, cap > (size_t)n ? cap - (size_t)n : 0, "#%d", p->index);
    return n;
}

/* §4 legacy names: <paired role>_l / _r, thigh_l / thigh_r (the leg). */
static int legacy(const char *s, jt_part *out)
{
    size_t n = strlen(s);
    if (n < 3 || s[n - 2] != '_' || (s[n - 1] != 'l' && s[n - 1] != 'r') || n - 2 >= sizeof out->role) return -1;
    char base[sizeof out->role];
    memcpy(base, s, n - 2);
    base[n - 2] = 0;
    if (!strcmp(base, "thigh") || !strcmp(base, "upperarm")) strcpy(base, base[0] == 't' ? "leg" : "arm");
    if (!jt_role_paired(base)) return -1;
    out->kind = CH_PART;
    strcpy(out->role, base);
    out->side = s[n - 1] == 'l' ? -1 : 1;
    out->index = -1;
    return 0;
}

/* The role a word names: 1 plain role, 2 a paw / foot word (front = hand), 3 a leg word
** (front/back give an index), 0 unknown. */
static int role_word(const char *w, char *role)
{
    static const struct { const char *word, *role; int kind; } WORDS[] = {
        {"head", "head", 1}, {"neck", "neck", 1}, {"torso", "torso", 1}, {"body", "torso", 1},
        {"spine", "torso", 1}, {"hips", "hips", 1}, {"hip", "hips", 1}, {"arm", "arm", 1}, {"arms", "arm", 1},
        {"forearm", "forearm", 1}, {"forearms", "forearm", 1}, {"hand", "hand", 1}, {"hands", "hand", 1},
        {"leg", "leg", 3}, {"legs", "leg", 3}, {"thigh", "leg", 3}, {"thighs", "leg", 3}, {"shin", "shin", 3},
        {"shins", "shin", 3}, {"foot", "foot", 2}, {"feet", "foot", 2}, {"paw", "paw", 2}, {"paws", "paw", 2},
        {"tail", "tail", 1}, {"ear", "ear", 1}, {"ears", "ear", 1}, {"wing", "wing", 1}, {"wings", "wing", 1},
        {"fin", "fin", 1}, {"fins", "fin", 1}, {"claw", "claw", 1}, {"claws", "claw", 1}, {"snout", "snout", 1},
        {"nose", "nose", 1}, {"hair", "hair", 1}, {"hat", "hat", 1}, {"eye", "eye", 1}, {"eyes", "eye", 1},
        {"brow", "brow", 1}, {"brows", "brow", 1}, {"eyebrow", "brow", 1}, {"eyebrows", "brow", 1},
    };
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
        if (!strcmp(w, WORDS[i].word)) {
            strcpy(role, WORDS[i].role);
            return WORDS[i].kind;
        }
    return 0;
}

int jt_part_word(const char *name, jt_part *out)
{
    memset(out, 0, sizeof *out);
    out->index = -1;
    if (!strncmp(name, "part:", 5) || !strncmp(name, "lift:", 5)) {  /* a channel: of a role in the vocabulary */
        if (jt_channel_parse(name, out) < 0 || !jt_role_known(out->role)) return -1;
        return 0;
    }
    if (legacy(name, out) == 0) return 0;
    /* words: [the] {left|right} {front|back|hind} role, any order before the role */
    char buf[128];
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof buf) return -1;
    for (size_t i = 0; i <= n; i++) buf[i] = (char)tolower((unsigned char)name[i]);
    char *tok[8];
    int nt = 0;
    for (char *p = buf; *p;) {  /* split on blanks in place */
        while (*p == ' ' || *p == '\t') *p++ = 0;
        if (!*p) break;
        if (nt == 8) return -1;
        tok[nt++] = p;
        while (*p && *p != ' ' && *p != '\t') p++;
    }
    int first = 0;
    if (nt && !strcmp(tok[0], "the")) first = 1;
    if (nt - first < 1) return -1;
    int side = 0, pos = 0;  /* pos: 1 front, -1 back */
    for (int i = first; i < nt - 1; i++) {
        if (!strcmp(tok[i], "left") && !side) side = -1;
        else if (!strcmp(tok[i], "right") && !side) side = 1;
        else if (!strcmp(tok[i], "front") && !pos) pos = 1;
        else if ((!strcmp(tok[i], "back") || !strcmp(tok[i], "hind")) && !pos) pos = -1;
        else return -1;
    }
    char role[sizeof out->role];
    int kind = role_word(tok[nt - 1], role);
    if (!kind) return -1;
    out->kind = CH_PART;
    out->side = side;
    if (kind == 2) {  /* paws and feet: a paw without front/back is a front paw (v0.4.1) */
        int front = pos > 0 || (pos == 0 && !strcmp(role, "paw"));
        strcpy(out->role, front ? "hand" : "foot");
        return 0;
    }
    if (kind == 3 && pos) {  /* quadruped legs: #0 back-left #1 back-right #2 front-left #3 front-right */
        int left = pos > 0 ? 2 : 0;
        out->index = side > 0 ? left + 1 : left;
    } else if (pos) {
        return -1;
    }
    strcpy(out->role, role);
    if (!jt_role_paired(role) && side) return -1;  /* "left head" */
    return 0;
}
