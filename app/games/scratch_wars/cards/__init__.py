"""Scratch Wars card data files (``heroes.yaml``, ``weapons.yaml``), loaded by ``..data``.

A package only so that the YAML files ship with the wheel (``pyproject.toml`` package data).
"""
