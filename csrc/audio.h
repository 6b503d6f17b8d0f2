/* audio.h: §10 AudioDirector (audio.ts).  One per AnimationState and one per
** state machine.  It turns play/stop requests into commands (play, stop, fade,
** mix) in emission order and keeps the bookkeeping of what is playing.
**
** Fixed capacity, sized at creation: nothing is allocated per frame.  When the
** playing-instance table is full the oldest non-looping instance is forgotten
** (no command); commands past the buffer's capacity are dropped and counted
** in `dropped`.
**
** Reporting: commands accumulate until ob_audio_begin_frame, which drops the
** ones already reported (those present at the last ob_audio_end_frame) and
** keeps the newer ones (emitted between frames, e.g. by setAnimation), so that
** they are reported with the next frame, before its own (FORMAT.md). */
#ifndef OB_AUDIO_H
#define OB_AUDIO_H

#include <stdint.h>
#include "document.h"

typedef enum ob_audio_cmd_type { OB_AUDIO_PLAY = 0, OB_AUDIO_STOP, OB_AUDIO_FADE, OB_AUDIO_MIX } ob_audio_cmd_type;

/// Where a play request comes from: "key", "event", "state", "listener"... and
/// a name; the command's source is "<kind>:<name>".  Both may be NULL.
typedef struct ob_audio_source { const char *kind, *name; } ob_audio_source;

/// The (owner, tag) de-duplication key of looping plays: a tag is a string
/// plus a number (audio keys: anim id and key index, "<animId>#<keyIndex>";
/// state hooks: e.g. "hook:" + sound, num -1).  str NULL = no tag.
typedef struct ob_audio_tag { const char *prefix, *str; int32_t num; } ob_audio_tag;

/// Options of ob_audio_play (§10 play(ref, opts)); has_* = the option is given.
typedef struct ob_audio_play_opts {
    int has_volume, has_rate, has_loop;
    double volume, rate;
    int loop;
    uint64_t owner;              /* opaque, 0 = unowned */
    ob_audio_tag tag;
    ob_audio_source source;
} ob_audio_play_opts;

/// One command.  Strings point into the document (or the source given to
/// play, which must outlive the report); ids are numbers n of "play_<n>".
typedef struct ob_audio_cmd {
    ob_audio_cmd_type type;
    int32_t id;                  /* play / stop / fade: instance id n */
    const char *sound;           /* play: sound id (asset id for an asset played directly) */
    const char *asset;           /* play: asset id or NULL */
    const char *bus;             /* play: bus id or NULL; mix: bus id or NULL (master) */
    double volume, rate, fade_in;
    int loop;
    ob_audio_source source;
    double fade;                 /* stop */
    double duration;             /* fade (volume is `volume`) */
    int muted;                   /* mix */
} ob_audio_cmd;

/// A playing instance (bookkeeping; the director's own table).
typedef struct ob_audio_playing {
    int32_t id;
    int32_t sound;               /* sound index, or -2 - asset index for an asset played directly */
    int loop;
    double end;                  /* end time on the director clock; loop ⇒ never */
    double fade_out;
    uint64_t owner;
    ob_audio_tag tag;
} ob_audio_playing;

typedef struct ob_audio_director {
    const ob_document *doc;
    double now;
    int32_t next_id;             /* last id handed out (ids start at 1) */
    int32_t sfx_bus;             /* bus named "sfx", -1 */
    int32_t playing_count, playing_capacity;
    ob_audio_playing *playing;   /* in start order */
    int32_t cmd_count, cmd_capacity, cmd_reported, dropped;
    ob_audio_cmd *cmds;
} ob_audio_director;

/// Sizes the tables (capacities ≤ 0 take defaults); 0 on success, -1 out of memory.
int ob_audio_init(ob_audio_director *a, const ob_document *doc, int32_t max_playing, int32_t max_commands);
/// Frees the tables (the struct itself belongs to the caller).
void ob_audio_destroy(ob_audio_director *a);

/// §10 update(dt): now += dt; forgets instances whose end time ≤ now (no command).
void ob_audio_update(ob_audio_director *a, double dt);
/// §10 play(ref, opts): resolves the sound (sound by id, then name; else asset
/// by id, then name), emits a play command; returns the id, 0 when nothing
/// played (unknown ref, or a looping (owner, tag) already playing).
int32_t ob_audio_play(ob_audio_director *a, const char *ref, const ob_audio_play_opts *opts);
/// §10 stop(id, fade ?? sound.fadeOut); has_fade 0 ⇒ the sound's fadeOut.
void ob_audio_stop(ob_audio_director *a, int32_t id, int has_fade, double fade);
/* §10 audio key k of an animation: play(key.sound, {volume, rate, loop from
** the key, owner, tag "<animId>#<k>", source "key:<anim name>"}). */
void ob_audio_play_key(ob_audio_director *a, const ob_animation_data *anim, int32_t k, uint64_t owner);
/// §10 stopSound(ref, fade): every instance of that sound.
void ob_audio_stop_sound(ob_audio_director *a, const char *ref, int has_fade, double fade);
/// §10 stopOwner(owner, fade): the owner's looping instances, fade max(fade, fadeOut).
void ob_audio_stop_owner(ob_audio_director *a, uint64_t owner, double fade);
/// §10 stopAll(): every instance, fade 0.
void ob_audio_stop_all(ob_audio_director *a);
/// Emits {fade, id, volume, duration}.
void ob_audio_fade(ob_audio_director *a, int32_t id, double volume, double duration);
/// Emits {mix, bus, muted} (§9.5 setMute); bus NULL = master.
void ob_audio_mix(ob_audio_director *a, const char *bus, int muted);

/// Starts a frame: drops the commands reported by the last frame.
void ob_audio_begin_frame(ob_audio_director *a);
/// Ends a frame: every command present is this frame's report.
void ob_audio_end_frame(ob_audio_director *a);
/// The commands of the last frame (cmd_reported of them at cmds).
static inline int32_t ob_audio_report_count(const ob_audio_director *a) { return a->cmd_reported; }

#endif
