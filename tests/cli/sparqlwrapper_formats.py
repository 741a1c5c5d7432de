"""Asks `oxilearn serve` every result format SPARQLWrapper offers, as its users do.

Usage: python sparqlwrapper_formats.py ENDPOINT TOKEN SELECT ASK CONSTRUCT DESCRIBE

For each query form, each format SPARQLWrapper has for it, and both GET and POST, runs the
query with `Authorization: Bearer TOKEN`, converts the answer as SPARQLWrapper does (rdflib
parses the graphs) and prints one JSON object: `"<form>/<format>/<method>"` -> the number of
rows (SELECT), the boolean (ASK) or the number of triples (CONSTRUCT, DESCRIBE), plus the
Content-Type the server answered. The Rust test compares these with the server's own answers.
"""

import io
import json
import sys
import warnings

import rdflib
from SPARQLWrapper import CSV, GET, JSON, JSONLD, N3, POST, RDFXML, TSV, TURTLE, XML
from SPARQLWrapper import SPARQLWrapper

# SPARQLWrapper warns (RuntimeWarning) of a Content-Type it did not expect or an Accept of
# */*: a failure here. (rdflib 7.6 deprecates ConjunctiveGraph, which SPARQLWrapper uses.)
warnings.simplefilter("error", RuntimeWarning)

TABLE_FORMATS = {"json": JSON, "xml": XML, "csv": CSV, "tsv": TSV}
GRAPH_FORMATS = {"turtle": TURTLE, "n3": N3, "rdfxml": RDFXML, "xml": XML, "jsonld": JSONLD}


def rows(fmt, converted):
    if fmt == "json":
        return len(converted["results"]["bindings"])
    if fmt == "xml":
        return len(converted.getElementsByTagName("result"))
    # CSV and TSV: a header line, then a line per row.
    return len(converted.decode("utf-8").strip().splitlines()) - 1


def boolean(fmt, converted):
    if fmt == "json":
        return converted["boolean"]
    if fmt == "xml":
        return converted.getElementsByTagName("boolean")[0].firstChild.data == "true"
    return converted.decode("utf-8").strip().splitlines()[-1] == "true"


def triples(fmt, converted, content_type):
    if isinstance(converted, bytes):
        # Turtle and N3 come as text: rdflib parses them in the syntax the server said.
        syntax = "nt" if "n-triples" in content_type else "turtle"
        if "n3" in content_type:
            syntax = "n3"
        g = rdflib.Graph()
        g.parse(io.BytesIO(converted), format=syntax)
        return len(g)
    return len(converted)


def main():
    endpoint, token, queries = sys.argv[1], sys.argv[2], sys.argv[3:7]
    forms = ["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]
    out = {}
    for form, query in zip(forms, queries):
        formats = TABLE_FORMATS if form in ("SELECT", "ASK") else GRAPH_FORMATS
        for name, fmt in formats.items():
            for method_name, method in (("get", GET), ("post", POST)):
                client = SPARQLWrapper(endpoint)
                client.addCustomHttpHeader("Authorization", f"Bearer {token}")
                client.setQuery(query)
                client.setReturnFormat(fmt)
                client.setMethod(method)
                client.setTimeout(30)
                result = client.query()
                content_type = result.info()["content-type"]
                converted = result.convert()
                if form == "SELECT":
                    value = rows(name, converted)
                elif form == "ASK":
                    value = boolean(name, converted)
                else:
                    value = triples(name, converted, content_type)
                out[f"{form.lower()}/{name}/{method_name}"] = [value, content_type]
    json.dump(out, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
