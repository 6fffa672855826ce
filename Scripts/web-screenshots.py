#!/usr/bin/env python3
"""Screenshots of `formstore serve`'s main pages for docs/screenshots/.

Builds the demo database, starts the built `formstore serve` and Debian's
chromedriver, drives headless Chromium over WebDriver (plain HTTP, no
selenium), and writes PNGs. Run from the package root after `swift build`:

    python3 Scripts/web-screenshots.py [OUTPUT_DIR]
"""
import base64, json, os, re, shutil, socket, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "screenshots")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    def __init__(self, port, width, height):
        self.base = "http://127.0.0.1:%d" % port
        self.width = width
        options = {"binary": "/usr/bin/chromium",
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--window-size=%d,%d" % (width, height)]}
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options,
                                                 "unhandledPromptBehavior": "accept"}}}
        self.session = "/session/" + self.call("POST", "/session", caps, prefix=False)["sessionId"]

    def call(self, method, path, body=None, prefix=True):
        url = self.base + (self.session if prefix else "") + path
        data = json.dumps(body if body is not None else {}).encode() if method != "GET" else None
        request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as reply:
            return json.load(reply)["value"]

    def open(self, url):
        self.call("POST", "/url", {"url": url})

    def element(self, css):
        return list(self.call("POST", "/element", {"using": "css selector", "value": css}).values())[0]

    def type(self, css, text):
        e = self.element(css)
        self.call("POST", "/element/%s/clear" % e)
        self.call("POST", "/element/%s/value" % e, {"text": text})

    def click(self, css):
        self.call("POST", "/element/%s/click" % self.element(css))

    def shot(self, name):
        height = self.call("POST", "/execute/sync", {"script": "return document.documentElement.scrollHeight", "args": []})
        self.call("POST", "/window/rect", {"width": self.width, "height": min(max(int(height) + 140, 500), 2200)})
        time.sleep(0.3)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(base64.b64decode(self.call("GET", "/screenshot")))

    def close(self):
        self.call("DELETE", "")


def main():
    os.makedirs(OUT, exist_ok=True)
    scratch = tempfile.mkdtemp()
    db = os.path.join(scratch, "demo.sqlite")
    subprocess.run(["sqlite3", db], stdin=open(os.path.join(ROOT, "Fixtures", "demo.sql")), check=True)
    # Orders referring to customers (a few: a select) and products (many: a searched input).
    subprocess.run(["sqlite3", db], input="""
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE products (sku INTEGER PRIMARY KEY, title TEXT NOT NULL);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id),
                             product_sku INTEGER REFERENCES products(sku), note TEXT);
        INSERT INTO customers VALUES (1, 'Ann Lee'), (2, 'Bo Kim');
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
            INSERT INTO products SELECT i, 'Product ' || i FROM n;
        INSERT INTO orders VALUES (1, 1, 42, 'Deliver before noon'), (2, 2, 7, NULL);
        """, text=True, check=True)
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(scratch, "state"))
    server = subprocess.Popen([os.path.join(ROOT, ".build", "debug", "formstore"), "--db", db, "--forms",
                               os.path.join(ROOT, "Fixtures", "forms"), "serve", "--listen", "127.0.0.1:0"],
                              stdout=subprocess.PIPE, env=env, text=True)
    site = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline()).group(0)
    driver_port = free_port()
    driver = subprocess.Popen(["chromedriver", "--port=%d" % driver_port], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(1)
    try:
        wide = Browser(driver_port, 1100, 900)
        wide.open(site + "/")
        wide.shot("forms.png")
        wide.open(site + "/forms/register")
        wide.shot("records.png")
        wide.open(site + "/forms/register/1")
        wide.type("#f-phone", "555-12")
        wide.click("#f-email")
        time.sleep(1)
        wide.shot("record-invalid-phone.png")
        other = Browser(driver_port, 1100, 900)
        other.open(site + "/forms/register/1")
        wide.open(site + "/forms/register/1")
        wide.type("#f-email", "ann.lee@example.org")
        wide.click("form.record button[type=submit]")
        time.sleep(0.5)
        wide.shot("record-saved.png")
        time.sleep(1.5)
        other.type("#f-email", "ann@work.example")
        other.click("form.record button[type=submit]")
        time.sleep(0.5)
        other.shot("conflict.png")
        other.close()
        wide.open(site + "/forms/orders")
        wide.shot("records-picker.png")
        wide.open(site + "/forms/orders/1")
        wide.shot("record-picker.png")
        wide.open(site + "/forms/orders/1")
        wide.type("#f-product_sku", "999")
        wide.click("form.record button[type=submit]")
        time.sleep(0.5)
        wide.shot("record-picker-missing.png")
        wide.open(site + "/forms/register/1/history")
        wide.shot("history.png")
        wide.open(site + "/forms/register/2/delete")
        wide.shot("delete-confirm.png")
        wide.close()
        phone = Browser(driver_port, 390, 844)
        phone.open(site + "/forms/basic-info/1")
        phone.shot("phone-record.png")
        phone.open(site + "/forms/signup/new")
        phone.click("form.record button[type=submit]")
        time.sleep(0.5)
        phone.shot("phone-new-invalid.png")
        phone.close()
        group_shots(driver_port, scratch, env)
        row_picker_shots(driver_port, scratch, env)
    finally:
        driver.kill()
        server.terminate()
        server.wait()
        shutil.rmtree(scratch)


INVOICE_SPEC = {
    "formstore": 1, "name": "invoice", "title": "Invoice", "table": "invoice", "primaryKey": ["id"],
    "sections": [
        {"fields": [{"key": "customer", "label": "Customer", "kind": "text", "required": True},
                    {"key": "total", "label": "Total", "kind": "decimal"}]},
        {"title": "Lines",
         "fields": [{"key": "item", "label": "Item", "kind": "text", "required": True},
                    {"key": "amount", "label": "Amount", "kind": "decimal"}],
         "group": {"key": "lines", "table": "invoice_line", "foreignKey": ["invoice_id"], "orderColumn": "position",
                   "minRows": 1, "unique": ["item"], "sums": [{"column": "amount", "field": "total"}]}}]}


def group_shots(driver_port, scratch, env):
    """A record with a repeating group: its rows, a row's errors, a row's conflict, a save's Undo."""
    db = os.path.join(scratch, "invoices.sqlite")
    forms = os.path.join(scratch, "invoice-forms")
    os.makedirs(forms)
    with open(os.path.join(forms, "invoice.json"), "w") as f:
        json.dump(INVOICE_SPEC, f)
    subprocess.run(["sqlite3", db], input="""
        CREATE TABLE invoice (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total NUMERIC NOT NULL DEFAULT 0);
        CREATE TABLE invoice_line (id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoice(id),
                                   position INTEGER NOT NULL, item TEXT NOT NULL, amount NUMERIC NOT NULL);
        INSERT INTO invoice VALUES (1, 'Ann', 6);
        INSERT INTO invoice_line VALUES (10, 1, 1, 'Tea', 2.5), (11, 1, 2, 'Cake', 3.5);
        """, text=True, check=True)
    server = subprocess.Popen([os.path.join(ROOT, ".build", "debug", "formstore"), "--db", db, "--forms", forms,
                               "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, env=env, text=True)
    record = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline()).group(0) + "/forms/invoice/1"
    save = "form.record > .actions > button[type=submit]"
    try:
        for width, suffix in [(1000, ""), (390, "-phone")]:
            browser = Browser(driver_port, width, 900)
            browser.open(record)
            browser.shot("record-group%s.png" % suffix)
            if suffix:
                browser.close()
                continue
            browser.click("button[value='add 0 lines']")
            time.sleep(0.5)
            browser.type("#g-lines-3-item", "Tea")
            browser.type("#g-lines-3-amount", "lots")
            browser.click(save)
            time.sleep(0.5)
            browser.shot("record-group-invalid.png")
            browser.open(record)
            subprocess.run(["sqlite3", db, "UPDATE invoice_line SET amount = 3 WHERE id = 10"], check=True)
            browser.type("#g-lines-1-amount", "4")
            browser.click(save)
            time.sleep(0.5)
            browser.shot("record-group-conflict.png")
            browser.open(record)
            browser.type("#f-customer", "Ann Lee")
            browser.click(save)
            time.sleep(0.5)
            browser.shot("record-undo.png")
            browser.close()
    finally:
        server.terminate()
        server.wait()


def row_picker_shots(driver_port, scratch, env):
    """Foreign keys in a group's rows (`serve --children`): pickers in the cells, a value referring to no row."""
    db = os.path.join(scratch, "order-lines.sqlite")
    subprocess.run(["sqlite3", db], input="""
        CREATE TABLE colours (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE products (sku INTEGER PRIMARY KEY, title TEXT NOT NULL);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT);
        CREATE TABLE order_line (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
                                 product_sku INTEGER REFERENCES products(sku), colour_id INTEGER REFERENCES colours(id),
                                 qty INTEGER);
        INSERT INTO colours VALUES (1, 'Red'), (2, 'Green'), (3, 'Blue');
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
            INSERT INTO products SELECT i, 'Product ' || i FROM n;
        INSERT INTO orders VALUES (1, 'Deliver before noon');
        INSERT INTO order_line VALUES (10, 1, 42, 2, 1), (11, 1, 7, 3, 3);
        """, text=True, check=True)
    server = subprocess.Popen([os.path.join(ROOT, ".build", "debug", "formstore"), "--db", db, "serve", "--children",
                               "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, env=env, text=True)
    record = re.search(r"http://127\.0\.0\.1:\d+", server.stdout.readline()).group(0) + "/forms/orders/1"
    try:
        browser = Browser(driver_port, 1000, 700)
        browser.open(record)
        browser.shot("record-row-picker.png")
        browser.type("#g-order_line-2-product_sku", "999")
        browser.click("form.record > .actions > button[type=submit]")
        time.sleep(0.5)
        browser.shot("record-row-picker-missing.png")
        browser.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
