"""openbone.toon: the Jabbertoon block language (behaviours, scenes and cartoons) on the C core.

    from openbone import toon
    rt = toon.create_runtime(seed=0)
    rt.add_character("c", legs=2)
    rt.start_behaviour("c", {"v": 1, "kind": "behaviour", "scripts": [{"body": [{"op": "hop"}]}]})
    rt.step_to(0.3)
    rt.pose("c")["dy"]

The contract is §6 of the Jabbertoon text in snake_case (docs: conformance/NOTES.md, Jabbertoon).
"""
from .runtime import (Behaviour, Program, Runtime, ToonError, cartoon_program, compile_program, create_runtime,
                      estimate_speech, pose_at, scenes_of, to_number, validate)
from .text import to_text

__all__ = ["create_runtime", "Runtime", "Behaviour", "Program", "compile_program", "validate", "pose_at",
           "ToonError", "to_number", "cartoon_program", "scenes_of", "estimate_speech", "to_text"]

# issue 15: Jabbertoon on rigs (role maps, RigCharacter, rt.add_character(rig=...), bake)
from .perform import bake  # noqa: E402
from .rig import RigCharacter  # noqa: E402
from .roles import RoleMap, guess_roles, load_roles  # noqa: E402

__all__ += ["RigCharacter", "RoleMap", "guess_roles", "load_roles", "bake"]
