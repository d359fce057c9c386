import CombineEx
import Foundation

/// Stops about combining publishers and time, on real DispatchQueues.
///
/// The output must read the same on every run, however loaded the machine: each stop waits
/// for the events it prints (with a generous timeout) instead of sleeping, and prints nothing
/// that depends on how threads interleave.
enum CombiningStops {
  static func run(_ tour: Tour) {
    merging(tour)
    debouncing(tour)
  }

  static func merging(_ tour: Tour) {
    tour.section(
      "Combining: merge on DispatchQueues",
      "merge interleaves several publishers into one stream. Here two sensors send from two "
        + "DispatchQueues at once, and receive(on:) hands every reading to one serial queue: "
        + "none lost, each sensor's in the order it sent them, and one completion once both "
        + "sensors have finished.")
    let sensors = [
      (
        name: "A", queue: DispatchQueue(label: "demo.sensor-a"),
        subject: PassthroughSubject<String, Never>()
      ),
      (
        name: "B", queue: DispatchQueue(label: "demo.sensor-b"),
        subject: PassthroughSubject<String, Never>()
      ),
    ]
    let results = DispatchQueue(label: "demo.results")
    let resultsKey = DispatchSpecificKey<Void>()
    results.setSpecific(key: resultsKey, value: ())
    // Touched only on `results`, and read here once `finished` is signalled.
    var readings: [String] = []
    var onResultsQueue = true
    var completions = 0
    let finished = DispatchSemaphore(value: 0)
    let cancellable = sensors[0].subject.merge(with: sensors[1].subject)
      .receive(on: results)
      .sink(
        receiveCompletion: { _ in
          completions += 1
          finished.signal()
        },
        receiveValue: { reading in
          onResultsQueue = onResultsQueue && DispatchQueue.getSpecific(key: resultsKey) != nil
          readings.append(reading)
        })
    for sensor in sensors {
      let (name, subject) = (sensor.name, sensor.subject)
      sensor.queue.async {
        for value in 1...3 { subject.send("\(name)\(value)") }
        subject.send(completion: .finished)
      }
    }
    guard wait(for: finished, tour, "the merged readings") else { return }
    tour.show(
      "received \(readings.count) readings, "
        + (onResultsQueue ? "all on demo.results" : "not all on demo.results"))
    for sensor in sensors {
      let own = readings.filter { $0.hasPrefix(sensor.name) }
      tour.show(
        "sensor \(sensor.name)'s readings, in the order received: \(own.joined(separator: ", "))")
    }
    tour.show("finished \(completions == 1 ? "once" : "\(completions) times")")
    withExtendedLifetime(cancellable) {}
  }

  static func debouncing(_ tour: Tour) {
    tour.section(
      "Time: debounce on a DispatchQueue",
      "debounce waits for a pause before passing on the latest value, like a search box "
        + "waiting for the user to stop typing. Here on a real serial queue: four keystrokes "
        + "arrive in one quick burst, and one search follows, 50 ms after the last.")
    let queue = DispatchQueue(label: "demo.search")
    let keystrokes = PassthroughSubject<String, Never>()
    let searched = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let cancellable =
      keystrokes
      .debounce(for: .milliseconds(50), scheduler: queue)
      .sink(
        receiveCompletion: { _ in finished.signal() },
        receiveValue: {
          tour.show("searching for \"\($0)\"")
          searched.signal()
        })
    // The burst runs as one block on the queue where the debounce timers fire, so no timer
    // can fire between two keystrokes, however slow the machine.
    queue.sync {
      for prefix in ["s", "sw", "swi", "swift"] {
        tour.show("typed \"\(prefix)\"")
        keystrokes.send(prefix)
      }
    }
    // Finishing drops a value still waiting for its pause, so wait for the search first.
    guard wait(for: searched, tour, "the search") else { return }
    keystrokes.send(completion: .finished)
    guard wait(for: finished, tour, "the completion") else { return }
    tour.show("finished")
    withExtendedLifetime(cancellable) {}
  }

  /// Waits for `semaphore` for up to 10 seconds (far longer than any stop needs); says so in
  /// the tour and returns `false` if it times out.
  private static func wait(
    for semaphore: DispatchSemaphore, _ tour: Tour, _ what: String
  ) -> Bool {
    guard semaphore.wait(timeout: .now() + 10) == .success else {
      tour.show("(gave up waiting for \(what) after 10 seconds)")
      return false
    }
    return true
  }
}
