"""Pictures of poses (`openbone render`, rich display, the notebook viewer).

* :mod:`.scene`: what a picture shows (view, textures, draw items, outlines, frames);
* :mod:`.engine`: the skia-python renderer (``drawVertices`` with image shaders, §8
  blend modes, clipping paths, two-colour tint, debug layers);
* :mod:`.output`: PNG/WebP/JPEG, GIF, MP4, SVG and sprite sheets, written atomically.

Rendering needs ``pip install 'openbone[render]'`` (skia-python, Pillow, imageio-ffmpeg).
"""
from .engine import (BLEND_MODES, HIGHLIGHT_COLOR, constraint_parts, path_curves, render_array, render_frames,
                     render_pose, require_skia)
from .output import (FORMATS, RASTER, check_extension, contact_sheet, pack_shelves, pose_svg, save_images,
                     save_sprite_sheet, sprite_sheet, write_mp4)
from .scene import (BONE_COLOR, BOX_COLOR, CLIP_COLOR, PreviewItem, Textures, View, _boundary_edges, _require_pillow,
                    _rgba8, attachment_world_vertices, clip_masks, doc_info, draw_items, drawn_points, outlines,
                    parse_frames, parse_hex, pose_points, preview_items, texture_files)

__all__ = [
    "render_pose", "render_array", "render_frames", "require_skia", "View", "Textures", "parse_frames", "parse_hex",
    "save_images", "save_sprite_sheet", "sprite_sheet", "pose_svg", "contact_sheet", "draw_items", "outlines",
    "pose_points", "drawn_points", "texture_files", "constraint_parts", "path_curves",
]
