import CombineEx

/// Stops about properties: values you can always read, that publish their changes.
enum PropertyStops {
  static func run(_ tour: Tour) {
    properties(tour)
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
}
