"""The examples of docs/python.md run as shown, in order, from the repository's root: every
```python block, with the assertions it makes."""

import os
import re


def test_the_python_guide_examples_run(root):
    text = (root / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    namespace = {}
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for number, block in enumerate(blocks, 1):
            exec(compile(block, f"docs/python.md block {number}", "exec"), namespace)
    finally:
        os.chdir(cwd)
