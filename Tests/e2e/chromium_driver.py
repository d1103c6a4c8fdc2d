"""Debian's headless chromium through chromedriver (selenium), and a wait that survives replaced pages."""
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait


def make_chromium(*arguments, prefs=None, exclude=()):
    """Debian's headless chromium through chromedriver, with extra command-line `arguments` and `prefs`; `exclude`
    drops switches chromedriver adds itself (e.g. "disable-popup-blocking": then window.open outside a click is
    blocked, as in a person's browser)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", *arguments):
        options.add_argument(argument)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    if exclude:
        options.add_experimental_option("excludeSwitches", list(exclude))
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def page_wait(driver, timeout=20):
    """A wait that retries when the page was replaced between finding an element and reading it. Chromium reports that
    as a stale element or, when the node goes mid-read, as a bare WebDriverException ("Node with given id does not
    belong to the document"); either way the condition is tried again until it holds or the wait times out."""
    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException, WebDriverException))
