"""`make run` as a person first meets it: scripts/run-dev (what `make run` starts) on a free port, and Chromium with a
virtual authenticator (resident keys, user verification) at the URL it prints. The person signs up, confirms the
address from the outbox, signs in, adds a passkey in settings, signs out and signs in again with the passkey button and
no address. run-dev serves on localhost because a passkey's relying party must be a name, never an address."""
import os
import signal
import subprocess
import threading

from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from look import PASSWORD, fill, loaded, sign_up, submit
from mails import outbox_link
from ports import free_port
from stack import BIN, ROOT
from test_passkeys import add_passkey, chromium_with_authenticator, passkey_names, sign_in_with_the_button, sign_out
from waits import wait_for


def test_make_run_serves_a_person_who_adds_a_passkey_and_signs_in_with_it(tmp_path):
    port = free_port()
    env = {**os.environ, "FRONTDOOR_BIN": BIN, "RUN_DIR": str(tmp_path / "run"), "VAR_DIR": str(tmp_path / "var")}
    # SIGINT at its default, as in a terminal (see test_modes): run-dev's Ctrl-C trap stops its nginx.
    script = subprocess.Popen(["env", "--default-signal=INT", str(ROOT / "scripts/run-dev"), str(port)], env=env, cwd=ROOT,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    output = []
    driver = None
    try:
        threading.Thread(target=lambda: output.extend(iter(script.stdout.readline, "")), daemon=True).start()
        url = f"http://localhost:{port}/account/"
        wait_for(lambda: any(url in line for line in output) or script.poll() is not None, timeout=60, what="run-dev's URL line")
        assert script.poll() is None, "".join(output)

        class Dev:  # what the shared page helpers need of a stack
            base = url.rstrip("/")
            outbox = tmp_path / "var/outbox"

        driver = chromium_with_authenticator(autofill=False)
        email = sign_up(driver, Dev)
        driver.get(outbox_link(Dev, email, "/confirm?token="))
        loaded(driver)
        driver.get(Dev.base + "/sign_in")
        fill(driver, email=email, password=PASSWORD)
        submit(driver)
        page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whoami"))

        add_passkey(driver, Dev, "My laptop")
        assert passkey_names(driver) == ["My laptop"]
        assert [c.rp_id for c in driver.get_credentials()] == ["localhost"]
        sign_out(driver, Dev)
        sign_in_with_the_button(driver, Dev)
        assert driver.find_element(By.CSS_SELECTOR, ".whoami").text == email
    finally:
        if driver is not None:
            driver.quit()
        os.killpg(script.pid, signal.SIGINT)
        try:
            script.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait()
    assert script.returncode == 0, "run-dev stops on Ctrl-C\n" + "".join(output)
