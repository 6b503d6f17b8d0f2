/* animation_state.h: §6 AnimationState (animation-state.ts): tracks of
** TrackEntries, a queue per track, cross-fades, the §5.2 events and §10 audio
** of the frame.  One per instance (inst->anim), every buffer sized at
** creation: OB_MAX_TRACKS tracks, OB_QUEUE_CAPACITY queued entries per track,
** OB_EVENT_CAPACITY events per report. */
#ifndef OB_ANIMATION_STATE_H
#define OB_ANIMATION_STATE_H

#include "audio.h"
#include "instance.h"

#define OB_MAX_TRACKS 16
#define OB_QUEUE_CAPACITY 16
#define OB_EVENT_CAPACITY 256

/// §6 TrackEntry.
typedef struct ob_track_entry {
    int32_t animation;           /* document animation index */
    int loop;
    double time, prev_time, speed, alpha;
    double mix_time, mix_duration;
    double completed_loops;
    double delay, mix;           /* as given to addAnimation (queued entries) */
    uint64_t serial;             /* unique per entry: the audio owner (§10) */
} ob_track_entry;

/// One track: the current entry, the entry it mixes from, the queue.
typedef struct ob_track {
    int has_entry, has_from;
    ob_track_entry entry, from;
    int32_t queue_count;
    ob_track_entry queue[OB_QUEUE_CAPACITY];
} ob_track;

/// A fired animation event (§5.2): time is the key's local time; int, float
/// and string from the key, else the event.
typedef struct ob_anim_event {
    int32_t event;               /* document event index */
    int32_t animation;
    int32_t track;
    double time, int_value, float_value;
    const char *string_value;
} ob_anim_event;

/* §6 "start" / "complete" notifications (Spine's AnimationState listener). */
typedef enum ob_anim_notice_type { OB_NOTICE_START = 0, OB_NOTICE_COMPLETE } ob_anim_notice_type;
typedef struct ob_anim_notice {
    ob_anim_notice_type type;
    int32_t track, animation;
} ob_anim_notice;
#define OB_NOTICE_CAPACITY 64

typedef struct ob_anim_state {
    /* tracks 0..track_capacity-1, grown by set/addAnimation (calls between
    ** frames, never advance) to the highest track used: most instances play
    ** one track, and 16 tracks with their queues are 23 KB (issue 17) */
    ob_track *tracks;
    int32_t track_capacity;
    ob_audio_director audio;     /* §10, one per AnimationState */
    uint64_t next_serial;
    int32_t event_count, event_reported, events_dropped;
    /* the report buffer: OB_EVENT_CAPACITY, or fewer when the tracks in use
    ** cannot fire that many in one advance (load, issue 17: per track at most
    ** OB_MAX_CROSSINGS crossings of each event key of the document's most keyed
    ** animation); grown with the tracks (ob_anim_reserve_tracks), never per frame */
    ob_anim_event *events;
    int32_t event_capacity, events_per_track;
    int32_t starts, completes;   /* "start" / "complete" emitted by the last report */
    int32_t pending_starts, pending_completes;
    int32_t notice_count, notice_reported, notices_dropped;
    ob_anim_notice notices[OB_NOTICE_CAPACITY]; /* in emission order, like events */
    uint8_t *marks;              /* slot_count scratch (draw order keys) */
} ob_anim_state;

/// §6 setAnimation(track, anim, loop, mix): 0, -1 for a bad track/animation, -3 out of memory.
int ob_anim_set_animation(ob_instance *inst, int32_t track, int32_t anim, int loop, double mix);
/// §6 addAnimation(track, anim, loop, delay, mix): 0, -1 bad arguments, -2 queue full, -3 out of memory.
int ob_anim_add_animation(ob_instance *inst, int32_t track, int32_t anim, int loop, double delay, double mix);
/// Empties a track (current, mixing-from and queued entries); the current
/// entry's looping sounds stop (fade = their fadeOut).
int ob_anim_clear_track(ob_instance *inst, int32_t track);
/// §6 TrackEntry speed and alpha of the track's current entry (a time scale,
/// and the weight the track is applied with); -1 when the track is empty.
int ob_anim_set_track_speed(ob_instance *inst, int32_t track, double speed);
int ob_anim_set_track_alpha(ob_instance *inst, int32_t track, double alpha);
/// The track, NULL when out of range (an empty track when never used).
const ob_track *ob_anim_track(const ob_instance *inst, int32_t track);
/// Makes tracks 0..n-1 exist (n <= OB_MAX_TRACKS); 0, or -1 out of memory.
int ob_anim_reserve_tracks(ob_anim_state *st, int32_t n);
/* The event buffer holds at least min(n, OB_EVENT_CAPACITY) events (a snapshot's); -1 out of memory. */
int ob_anim_reserve_events(ob_anim_state *st, int32_t n);
/// The events of the last advance (count in *n).
const ob_anim_event *ob_anim_events(const ob_instance *inst, int32_t *n);
/// The start/complete notifications of the last advance (count in *n); those
/// emitted by set/addAnimation between advances come with the next one.
const ob_anim_notice *ob_anim_notices(const ob_instance *inst, int32_t *n);
/// The audio director.
ob_audio_director *ob_anim_audio(ob_instance *inst);
/// A slot_count byte scratch for timeline.c (draw-order keys).
uint8_t *ob_anim_state_marks(ob_instance *inst);

#endif
