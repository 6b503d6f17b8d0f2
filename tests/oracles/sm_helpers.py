"""Small document builders for the §9 state-machine tests."""
import json

import openbone


def tl(target, id, prop, keys):
    return {"target": target, "id": id, "property": prop, "keys": [{"time": t, "value": v} for t, v in keys]}


def anim(id, timelines=(), duration=1, **kw):
    d = {"id": id, "name": id, "duration": duration, "timelines": list(timelines)}
    d.update(kw)
    return d


def state(id, animation=None, **kw):
    d = {"id": id, "name": id, "type": "animation"}
    if animation is not None:
        d["animation"] = animation
    d.update(kw)
    return d


def cond(input, op=None, value=None):
    d = {"input": input}
    if op is not None:
        d["op"] = op
        d["value"] = value
    return d


def trans(frm, to, conditions=(), **kw):
    d = {"from": frm, "to": to, "conditions": list(conditions)}
    d.update(kw)
    return d


def _input(id, type, default=None, name=None):
    d = {"id": id, "name": name or id, "type": type}
    if default is not None:
        d["default"] = default
    return d


def doc(inputs=(), layers=(), animations=(), bones=None, slots=(), skins=None, bindings=(), listeners=(),
        events=(), audio=None, scripts=None, machine_scripts=None, constraints=None):
    """A document with one state machine `m`.  Inputs are (id, type, default[, name])."""
    bones = bones or [{"id": "root", "name": "root"}, {"id": "b", "name": "b", "parent": "root"}]
    sk = {"bones": bones, "slots": list(slots),
          "skins": skins or [{"id": "default", "name": "default", "attachments": {}}]}
    if constraints:
        sk.update(constraints)
    machine = {"id": "m", "name": "m",
               "inputs": [_input(*x) for x in inputs],
               "layers": list(layers), "bindings": list(bindings), "listeners": list(listeners)}
    if machine_scripts:
        machine["scripts"] = machine_scripts
    d = {"format": "openbone", "version": 1, "name": "t", "width": 100, "height": 100, "fps": 30,
         "skeleton": sk, "animations": list(animations), "events": list(events), "stateMachines": [machine]}
    if audio:
        d["audio"] = audio
    if scripts:
        d["scripts"] = scripts
    return openbone.loads(json.dumps(d))


def layer(states, transitions=(), entry=None, id="L"):
    return {"id": id, "name": id, "entry": entry or states[0]["id"], "states": list(states),
            "transitions": list(transitions)}


def inst(d, **kw):
    return openbone.Instance(d, state_machine="m", **kw)


def bone_local_x(i, bone="b"):
    """World x of a child of an identity root = its local x."""
    return float(i.world[i.document.bone_index(bone)][4])


def bone_local_y(i, bone="b"):
    return float(i.world[i.document.bone_index(bone)][5])
