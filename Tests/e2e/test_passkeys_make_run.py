"""`make run` as a person first meets it: scripts/run-dev (what `make run` starts) on a free port, and Chromium with a
virtual authenticator (resident keys, user verification) at the URL it prints. The person signs up, confirms the
address from the outbox, signs in, adds a passkey in settings, signs out and signs in again with the passkey button and
no address. run-dev serves on localhost because a passkey's relying party must be a name, never an address."""
from selenium.webdriver.common.by import By

from chromium_driver import page_wait
from look import PASSWORD, fill, loaded, sign_up, submit
from mails import outbox_link
from make_run import make_run
from test_passkeys import add_passkey, chromium_with_authenticator, passkey_names, sign_in_with_the_button, sign_out


def test_make_run_serves_a_person_who_adds_a_passkey_and_signs_in_with_it(tmp_path):
    driver = chromium_with_authenticator(autofill=False)
    try:
        with make_run(tmp_path) as dev:
            email = sign_up(driver, dev)
            driver.get(outbox_link(dev, email, "/confirm?token="))
            loaded(driver)
            driver.get(dev.base + "/sign_in")
            fill(driver, email=email, password=PASSWORD)
            submit(driver)
            page_wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".whoami"))

            add_passkey(driver, dev, "My laptop")
            assert passkey_names(driver) == ["My laptop"]
            assert [c.rp_id for c in driver.get_credentials()] == ["localhost"]
            sign_out(driver, dev)
            sign_in_with_the_button(driver, dev)
            assert driver.find_element(By.CSS_SELECTOR, ".whoami").text == email
    finally:
        driver.quit()
    assert dev.returncode == 0, "run-dev stops on Ctrl-C\n" + "".join(dev.output)
