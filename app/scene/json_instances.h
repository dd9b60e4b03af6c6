/* json_instances.h: the "instances" of a scene file (scenes/FORMAT.md), for scene_json.c. */
#ifndef RC_JSON_INSTANCES_H
#define RC_JSON_INSTANCES_H

#include "json_fields.h"
#include "scene.h"

#include <cjson/cJSON.h>

/* Before "meshes" is parsed: which of its entries the instances name (*used, one byte per
 * entry, the caller frees it; NULL without "instances"), every instance's "mesh" resolved
 * (an index, or a mesh's "name"; mesh names must be unique). 0, or -1 with the error set. */
int rc_json_instances_scan(rc_json_ctx *c, const cJSON *root, uint8_t **used);
/* After it: each instance with its transform, of scene mesh mesh_of[k] for "meshes" entry k. */
int rc_json_instances_parse(rc_json_ctx *c, const cJSON *root, const long *mesh_of);

#endif /* RC_JSON_INSTANCES_H */
