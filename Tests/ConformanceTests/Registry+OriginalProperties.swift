import CombineEx

extension Registry {
  // MARK: lift and UIProperty (CombineEx)

  /// `lift(_:)` returns a `Property` fed by the transformed stream, which it subscribes to
  /// once, for its own lifetime (like `Property(initial:then:)`).
  static let liftedProperties: [CaseBuilder] = [
    CaseBuilder("Property.lift(map)", traits: [.neverCompletes, .keepsUpstream]) { env in
      let property = env.drivenProperty().lift { $0.map { $0 * 3 } }
      env.retain(property)
      return property
    },
    CaseBuilder("Property.lift(scan)", traits: [.neverCompletes, .keepsUpstream]) { env in
      let property = env.drivenProperty().lift { $0.scan(0, +) }
      env.retain(property)
      return property
    },
    CaseBuilder("Property.lift(prefix)", traits: .keepsUpstream) { env in
      let property = env.drivenProperty().lift { $0.prefix(3) }
      env.retain(property)
      return property
    },
  ]

  static let mirroredProperties: [RegistryEntry] = [
    // A UIProperty applies its source's values on the main queue, which the synchronous harness
    // cannot step; its own publisher (what the cases check) is a MutableProperty. The main-queue
    // path is checked by UIPropertyTests.
    .generic(
      "UIProperty",
      [
        CaseBuilder("UIProperty.just", traits: .neverCompletes) { _ in UIProperty.just(5) },
        CaseBuilder("UIProperty(Property(value:))", traits: .neverCompletes) { _ in
          UIProperty(Property(value: 4))
        },
      ])
  ]
}
