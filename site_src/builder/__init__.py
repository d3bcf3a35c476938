"""The stages of the site's build, one module per concern; build.py runs them in order.

Each module imports only those before it in this list: settings, output, pages, render,
providers, links, security, compress, runtime, browser_python, offline, serve.
"""
