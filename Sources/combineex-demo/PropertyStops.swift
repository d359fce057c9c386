import CombineEx
import Foundation

/// Stops about properties: values you can always read, that publish their changes.
enum PropertyStops {
  static func run(_ tour: Tour) {
    properties(tour)
    persistence(tour)
  }

  static func properties(_ tour: Tour) {
    tour.section(
      "Properties",
      "A MutableProperty always has a value you can read, never fails, and publishes every "
        + "change. Expose it read-only as a Property. Setting it from inside a subscriber is "
        + "safe: the new value is delivered after the current one.")
    let volume = MutableProperty(3)
    let readOnly = Property(volume)
    let cancellable = readOnly.sink { level in
      tour.show("volume is \(level)")
      if level > 10 {
        tour.show("too loud: clamping to 10 from inside the subscriber")
        volume.value = 10
      }
    }
    volume.modify { $0 += 1 }
    volume.value = 11
    tour.show("readOnly.value is \(readOnly.value)")
    withExtendedLifetime(cancellable) {}
  }

  static func persistence(_ tour: Tour) {
    tour.section(
      "Persistence",
      "A PersistentProperty is a MutableProperty whose value is kept in a file: it starts with "
        + "the stored value, and each set is written (atomically: a temporary file renamed over "
        + "the old one) before it returns. This counter lives in the temporary directory: run "
        + "the demo again and it goes on from where this run left it.")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("combineex-demo")
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder)
    let runs = PersistentProperty(storageEngine: engine, key: "tour runs", defaultValue: 0)
    if runs.value == 0 {
      tour.show("no stored value yet: this is the first run")
    } else {
      tour.show("the tour ran \(runs.value) time(s) before this one (stored on disk)")
    }
    let label = MutableProperty("")
    label <~ runs.map { "run number \($0)" }
    runs.modify { $0 += 1 }
    tour.show("\(label.value), written to \(folder.path) before modify returned")
    if let error = runs.error.value {
      tour.show("could not store the counter: \(error)")
    }
  }
}
