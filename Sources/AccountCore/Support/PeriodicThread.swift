// PeriodicThread.swift: a named thread that runs one pass now and then one every interval until the process ends;
// what serve's background work (MailSender, Pruner) runs on. Options: none.
import Foundation

enum PeriodicThread {
    /// Starts the thread `name`, calling `pass` at once and then every `interval` seconds.
    static func start(name: String, every interval: TimeInterval, _ pass: @escaping @Sendable () -> Void) {
        let thread = Thread {
            while true {
                pass()
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = name
        thread.start()
    }
}
