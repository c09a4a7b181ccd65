#!/usr/bin/env python3
"""What the installed transformers makes of model configs: the oracle of the real-transformers tier.

Reads a JSON list of config paths on stdin (or the paths as arguments) and prints one JSON object:
{"transformers": version, "torch": version, "configs": {path: result}}. Each config is loaded as
`AutoConfig.from_pretrained` loads a config.json (the class registered for its `model_type`, then
`from_dict`), and every rotary-embedding class of the model's modeling module is built from that
config on the CPU, as the model's `__init__` builds it: no weights, no model. A result holds:

  modelType, error (the exception raised at load: a refusal), log (what transformers logged or
  warned while loading and building), ropeParameters (the resolved `rope_parameters` in 5.x,
  `rope_scaling` in 4.x), tables[]: one per rotary table (one per layer type where the class keys
  its tables by layer type): class, layerType, ropeType, attentionScaling, invFreq (the float32
  buffer, as float64 numbers), invFreq64 (the same code run with torch's float32 taken as float64,
  for comparisons at float64 precision) or error (a class the text config cannot build, e.g. a
  vision tower's).

One process serves every config: the tier starts it once per transformers version.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import inspect
import json
import logging
import sys
import types
import warnings

TRANSFORMERS = importlib.metadata.version("transformers")

if TRANSFORMERS.startswith("4."):
    # 4.57 pins huggingface-hub < 1.0, which the offline index no longer serves; loading configs never
    # touches the Hub, so the import-time version check is stood down (the only change to the library).
    stub = types.ModuleType("transformers.dependency_versions_check")
    stub.dep_version_check = lambda *args, **kwargs: None
    sys.modules["transformers.dependency_versions_check"] = stub

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers.models.auto.configuration_auto import CONFIG_MAPPING, model_type_to_module_name  # noqa: E402
from transformers.utils import logging as hf_logging  # noqa: E402


class Collect(logging.Handler):
    """Every record transformers logs at warning level or above, in order."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


collect = Collect()
hf_logging.get_logger("transformers").addHandler(collect)
hf_logging.set_verbosity_warning()
hf_logging.disable_default_handler()  # the records go to the result, not to stderr


@contextlib.contextmanager
def float32_as_float64():
    """The library's own formulas at float64: torch.float/float32 and Tensor.float() mean float64 inside."""
    saved = (torch.float, torch.float32, torch.Tensor.float)
    torch.float = torch.float64
    torch.float32 = torch.float64
    torch.Tensor.float = lambda self, *a, **k: self.to(torch.float64)
    try:
        yield
    finally:
        torch.float, torch.float32, torch.Tensor.float = saved


def rotary_classes(model_type: str) -> list[type]:
    try:
        module = importlib.import_module(f"transformers.models.{model_type_to_module_name(model_type)}.modeling_{model_type_to_module_name(model_type)}")
    except Exception:
        return []
    found = []
    for name, obj in vars(module).items():
        if name.endswith("RotaryEmbedding") and inspect.isclass(obj) and issubclass(obj, torch.nn.Module):
            found.append(obj)
    return sorted(found, key=lambda c: c.__name__)


def buffers(module: torch.nn.Module) -> list[tuple[str | None, torch.Tensor, float]]:
    """(layer type, inv_freq, attention scaling) for each table the module holds."""
    out = []
    names = dict(module.named_buffers())
    if "inv_freq" in names:
        out.append((None, names["inv_freq"], float(getattr(module, "attention_scaling", 1.0))))
    for name, buf in names.items():
        if name.endswith("_inv_freq") and not name.endswith("original_inv_freq"):
            layer_type = name[: -len("_inv_freq")]
            out.append((layer_type, buf, float(getattr(module, f"{layer_type}_attention_scaling", 1.0))))
    return out


def build(cls: type, config) -> torch.nn.Module:
    """The class built as its model builds it: from the text config (a composite model's language model), else the config."""
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    try:
        return cls(config=text)
    except Exception:
        if text is config:
            raise
    return cls(config=config)


def plain(value):
    try:
        return json.loads(json.dumps(value, default=lambda o: repr(o)))
    except Exception:
        return repr(value)


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    model_type = data.get("model_type") if isinstance(data, dict) else None
    result: dict = {"modelType": model_type, "tables": []}
    if model_type not in CONFIG_MAPPING:
        result["error"] = f"unknown model_type '{model_type}'"
        return result
    try:
        config = CONFIG_MAPPING[model_type].from_dict(data)
    except Exception as e:  # a refusal at load: what from_pretrained raises
        result["error"] = f"{type(e).__name__}: {e}"
        return result
    text = config.get_text_config() if hasattr(config, "get_text_config") else config
    for key, field in (("ropeParameters", "rope_parameters"), ("ropeScaling", "rope_scaling")):
        if getattr(text, field, None) is not None:
            result[key] = plain(getattr(text, field))
    result["maxPositionEmbeddings"] = getattr(text, "max_position_embeddings", None)
    if getattr(text, "layer_types", None):
        result["layerTypes"] = sorted(set(text.layer_types))
    classes = rotary_classes(model_type)
    if getattr(text, "model_type", model_type) != model_type:  # a composite whose language model is another model type
        classes += [c for c in rotary_classes(text.model_type) if c not in classes]
    for cls in classes:
        try:
            module = build(cls, config)
            with float32_as_float64():
                module64 = build(cls, config)
        except Exception as e:
            result["tables"].append({"class": cls.__name__, "error": f"{type(e).__name__}: {e}"})
            continue
        wide = {lt: buf for lt, buf, _ in buffers(module64)}
        for layer_type, buf, scaling in buffers(module):
            table = {"class": cls.__name__, "ropeType": getattr(module, "rope_type", None), "attentionScaling": scaling}
            if layer_type is not None:
                table["layerType"] = layer_type
                table["ropeType"] = module.rope_type.get(layer_type) if isinstance(module.rope_type, dict) else module.rope_type
            table["invFreq"] = buf.double().tolist()
            if layer_type in wide:
                table["invFreq64"] = wide[layer_type].double().tolist()
            result["tables"].append(table)
    return result


def partial_factor_classes() -> list[str]:
    """Model types whose default RoPE (their rotary class's compute_default_rope_parameters) reads partial_rotary_factor.

    The other types' default RoPE rotates the whole head whatever the file says; every scaled type reads it
    (modeling_rope_utils's functions do). Read from the modeling files' source (read as text, not imported:
    importing every model takes minutes)."""
    import os
    import re

    models = os.path.join(os.path.dirname(transformers.__file__), "models")
    found = []
    for model_type in sorted(CONFIG_MAPPING.keys()):
        name = model_type_to_module_name(model_type)
        path = os.path.join(models, name, f"modeling_{name}.py")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            source = f.read()
        for chunk in source.split("\nclass ")[1:]:
            header = chunk.split("(", 1)[0]
            if not header.endswith("RotaryEmbedding") or "Vision" in header or "def compute_default_rope_parameters" not in chunk:
                continue
            body = chunk.split("def compute_default_rope_parameters", 1)[1]
            body = re.split(r"\n    (?:def |@)", body, maxsplit=1)[0]  # up to the class's next method
            if "partial_rotary_factor" in body:
                found.append(model_type)
                break
    return found


def main() -> None:
    if sys.argv[1:] == ["--partial-factor-classes"]:
        json.dump(partial_factor_classes(), sys.stdout)
        sys.stdout.write("\n")
        return
    paths = sys.argv[1:] or json.load(sys.stdin)
    configs = {}
    for path in paths:
        collect.lines.clear()
        hf_logging.warning_once.cache_clear() if hasattr(hf_logging, "warning_once") else None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = load(path)
            except Exception as e:  # unreadable file: reported, never fatal for the others
                result = {"modelType": None, "error": f"{type(e).__name__}: {e}", "tables": []}
        log = collect.lines + [str(w.message) for w in caught]
        if log:
            result["log"] = "\n".join(dict.fromkeys(log))
        configs[path] = result
    json.dump({"transformers": transformers.__version__, "torch": torch.__version__, "configs": configs}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
