/* fly_camera.h: the viewer's fly camera: the scene's camera moved by keys (steps along its own
 * axes) and turned by mouse drags (about the scene's up and the camera's right). */
#ifndef RC_VIEW_CAMERA_H
#define RC_VIEW_CAMERA_H

#include "../core/camera.h"

typedef struct rc_fly_camera {
    rc_camera_desc home; /* the scene's camera, for R */
    rc_camera_desc desc; /* now: look_at is always focus_distance ahead of look_from */
    float step;          /* one key press moves this far: 4% of the scene camera's focus */
    float aspect;        /* width / height of the image */
} rc_fly_camera;

void rc_fly_init(rc_fly_camera *c, const rc_camera_desc *scene_camera, float aspect);
/* Back to the scene's camera. */
void rc_fly_home(rc_fly_camera *c);
/* Move by whole steps along the camera's right, the scene's up and the view direction. */
void rc_fly_move(rc_fly_camera *c, float right, float up, float forward);
/* Turn by a mouse drag of (dx, dy) pixels: right and down turn right and down. */
void rc_fly_turn(rc_fly_camera *c, float dx, float dy);
/* The renderer's camera for the current position and direction. */
rc_camera rc_fly_camera_get(const rc_fly_camera *c);

#endif /* RC_VIEW_CAMERA_H */
