"""Where things are in a student's program: the lines of its definitions,
assignments, calls, loops and tests, read from its syntax tree (line
numbers from 1). The sections and the errors' diagnosis name lines with it;
the repair search proves them.
"""
import ast

import check_causes


class Lines:
    """Where things are in the student's program (line numbers from 1)."""

    def __init__(self, tree):
        self.tree = tree
        self.defs = {node.name: node for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef)}

    def all_names(self):
        """Every name and field name the program's text uses."""
        return {node.id for node in ast.walk(self.tree) if isinstance(node, ast.Name)} | {
            node.attr for node in ast.walk(self.tree) if isinstance(node, ast.Attribute)}

    def of_def(self, name):
        """The line of `def name`, or None."""
        node = self.defs.get(name)
        return node.lineno if node else None

    def of_assign(self, name):
        """The line of the module's first assignment to name, or None."""
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in node.targets):
                return node.lineno
        return None

    def of_call(self, name, inside=None):
        """The first line calling name (a function, or a method name)."""
        root = self.defs.get(inside) if inside else self.tree
        if root is None:
            return None
        for node in ast.walk(root):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    return node.lineno
        return None

    def of_name(self, name, inside):
        """The first line in function inside (the whole program if None)
        that uses name, .name or the text name."""
        root = self.defs.get(inside) if inside else self.tree
        if root is None:
            return None
        found = [node.lineno for node in ast.walk(root)
                 if (isinstance(node, ast.Name) and node.id == name)
                 or (isinstance(node, ast.Attribute) and node.attr == name)
                 or (check_causes.is_constant(node) and check_causes.constant(node) == name)]
        return min(found) if found else None

    def changes(self, name):
        """The first line inside a function that empties or shortens the
        list name (clear, remove, pop, del, or a new value), or None."""
        for func in self.defs.values():
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in ("clear", "remove", "pop") \
                        and isinstance(node.func.value, ast.Name) \
                        and node.func.value.id == name:
                    return node.lineno
                if isinstance(node, (ast.Assign, ast.Delete)) and any(
                        name in {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
                        for t in getattr(node, "targets", [])):
                    return node.lineno
        return None

    def appends_to(self, name):
        """Whether the program calls name.append(...) anywhere."""
        return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
                   node.func.attr == "append" and isinstance(node.func.value, ast.Name) and
                   node.func.value.id == name for node in ast.walk(self.tree))

    def stores_of(self, attr):
        """The first line that sets a field named attr (block.attr = ...)."""
        found = [node.lineno for node in ast.walk(self.tree) if isinstance(
            node, ast.Attribute) and node.attr == attr and isinstance(node.ctx, ast.Store)]
        return min(found) if found else None

    def last_tile_field(self):
        """The line of the last field the tile-making loop sets (where a
        missing one belongs after), or None."""
        loops = check_causes.tile_loops(self.tree)
        if loops is None:
            return None
        found = [node.lineno for node in ast.walk(loops[1]) if isinstance(
            node, ast.Attribute) and isinstance(node.ctx, ast.Store)]
        return max(found) if found else None

    def field_in_branch(self, func, field, branch):
        """The line of `X.field = ...` in the body (or else) of the first if
        of func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for test in ast.walk(node):
            if isinstance(test, ast.If):
                for s in (test.body if branch == "body" else test.orelse):
                    for n in ast.walk(s):
                        if isinstance(n, ast.Attribute) and n.attr == field and \
                                isinstance(n.ctx, ast.Store):
                            return n.lineno
                return None
        return None

    def else_of(self, func):
        """The first line of the else part of the first if in func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for s in ast.walk(node):
            if isinstance(s, ast.If) and s.orelse:
                return s.orelse[0].lineno
        return None

    def of_loop(self, name):
        """The line of the module's first for loop over range(... name ...)."""
        for node in self.tree.body:
            if isinstance(node, ast.For) and any(
                    isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.iter)):
                return node.lineno
        return None

    def only_pass(self, name):
        """The line of `pass` if function name does nothing else, or None."""
        node = self.defs.get(name)
        if node is None:
            return None
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and
                                             check_causes.is_constant(getattr(s, "value", None)))]
        if len(body) == 1 and isinstance(body[0], ast.Pass):
            return body[0].lineno
        return None

    def globals_in(self, name):
        """The names a function declares global."""
        node = self.defs.get(name)
        if node is None:
            return set()
        return {n for s in ast.walk(node) if isinstance(s, ast.Global) for n in s.names}

    def assigns_in(self, func, name):
        """The line of the first `name = ...` inside a function, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for s in ast.walk(node):
            if isinstance(s, (ast.Assign, ast.AugAssign)):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    return s.lineno
        return None

    def isopen_set(self, func):
        """Where open_block marks its tile open: ('missing', def line),
        ('below', line) when after its loop, or ('ok', line)."""
        node = self.defs.get(func)
        if node is None or not node.args.args:
            return "missing", self.of_def(func)
        param = node.args.args[0].arg
        first_loop = None
        for s in node.body:
            if isinstance(s, (ast.For, ast.While)) and first_loop is None:
                first_loop = s.lineno
        for s in ast.walk(node):
            if isinstance(s, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "isopen"
                    and isinstance(t.value, ast.Name) and t.value.id == param
                    for t in s.targets):
                if first_loop is not None and s.lineno > first_loop:
                    return "below", s.lineno
                return "ok", s.lineno
        return "missing", node.lineno

    def return_in_loop(self, func):
        """The line of a return inside a loop of function func, or None."""
        node = self.defs.get(func)
        if node is None:
            return None
        for loop in ast.walk(node):
            if isinstance(loop, (ast.For, ast.While)):
                for s in ast.walk(loop):
                    if isinstance(s, ast.Return):
                        return s.lineno
        return None

    def names_in(self, func):
        """The names get_neighbours gives a tile of its loop and the tile
        asked about (the book's block and bk)."""
        node = self.defs.get(func)
        other = node.args.args[0].arg if node is not None and node.args.args else "bk"
        loops = [s for s in ast.walk(node) if isinstance(s, ast.For)] if node else []
        tile = loops[0].target.id if loops and isinstance(loops[0].target, ast.Name) \
            else "block"
        return tile, other

    def conditions(self, func):
        """The parts of the longest `or` in a function: the comparisons of
        get_neighbours, one for each neighbour in the book."""
        node = self.defs.get(func)
        if node is None:
            return []
        ors = [n for n in ast.walk(node) if isinstance(n, ast.BoolOp)
               and isinstance(n.op, ast.Or)]
        return max(ors, key=lambda n: len(n.values)).values if ors else []
