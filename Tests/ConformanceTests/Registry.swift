import CombineEx
import Foundation

/// How the conformance suite checks one public publisher type.
enum Coverage: Sendable {
  /// Through the generic harness, with these cases (several ways of producing the type).
  case generic([ConformanceCase])
  /// Not through the generic harness: why, and which test checks it instead.
  case tailored(reason: String, checkedBy: String)
}

/// One public publisher type of the package and how it is checked.
struct RegistryEntry: Sendable {
  /// The type's name as declared, qualified by its enclosing type (`Publishers.Map`, `Just`).
  let typeName: String
  let coverage: Coverage

  /// A type checked by the generic harness.
  static func generic(_ typeName: String, _ cases: [CaseBuilder]) -> RegistryEntry {
    RegistryEntry(typeName: typeName, coverage: .generic(cases.map { $0.make(typeName) }))
  }

  /// A type checked by a tailored test only.
  static func tailored(_ typeName: String, reason: String, checkedBy: String) -> RegistryEntry {
    RegistryEntry(typeName: typeName, coverage: .tailored(reason: reason, checkedBy: checkedBy))
  }
}

/// A case before it knows its registry entry's type name.
struct CaseBuilder: Sendable {
  let make: @Sendable (String) -> ConformanceCase

  init<P: Publisher & SendableMetatype>(
    _ name: String, traits: CaseTraits = [], keepsLatest: Int = 0,
    _ build: @escaping @Sendable (ConformanceEnvironment) -> P
  ) {
    make = { typeName in
      ConformanceCase(name, typeName, traits: traits, keepsLatest: keepsLatest, build: build)
    }
  }
}

/// Every public publisher type of the package. A test compares this list with the types
/// declared under `Sources/`: adding a publisher or an operator without registering it here
/// fails the suite (see `RegistryCompletenessTests`).
///
/// To register a type: add a `.generic` entry with one `CaseBuilder` per way of producing it
/// (each builds the publisher from the harness's sources, `env.ints()` and friends, and captures
/// `env.canary` in its closures), with the traits that apply; or, for a type the harness cannot
/// drive (one that needs a scheduler, say), a `.tailored` entry naming the reason and the test
/// that checks it.
enum Registry {
  static let entries: [RegistryEntry] =
    sources + morePublishers + transforming + filtering + reducing + others + combining + time
    + sharing + properties + lifetimes + cold + store + originalCombineEx + networking

  /// Every generic case, for parameterized tests.
  /// Set `CONFORMANCE_CASE` to a case's name (or part of it) to run only the matching cases.
  static let cases: [ConformanceCase] = entries.flatMap { entry -> [ConformanceCase] in
    if case .generic(let cases) = entry.coverage { return cases }
    return []
  }.filter { testCase in
    guard let only = ProcessInfo.processInfo.environment["CONFORMANCE_CASE"] else { return true }
    return testCase.name.contains(only)
  }

  // MARK: Sources and subjects

  static let sources: [RegistryEntry] = [
    .generic(
      "Just",
      [
        CaseBuilder("Just") { _ in Just(7) },
        CaseBuilder("Just.replaceEmpty") { _ in Just(7).replaceEmpty(with: 0) },
      ]),
    .generic(
      "Empty",
      [
        CaseBuilder("Empty") { _ in Empty<Int, ConformanceError>() },
        CaseBuilder("Empty(completeImmediately: false)", traits: .neverCompletes) { _ in
          Empty<Int, ConformanceError>(completeImmediately: false)
        },
        CaseBuilder("Publishers.Sequence.ignoreOutput") { _ in [1, 2].publisher.ignoreOutput() },
      ]),
    .generic(
      "Fail", [CaseBuilder("Fail") { _ in Fail<Int, ConformanceError>(error: ConformanceError(5)) }]
    ),
    .generic(
      "Publishers.Sequence",
      [
        CaseBuilder("[].publisher") { _ in [Int]().publisher },
        CaseBuilder("[1, 2, 3].publisher") { _ in [1, 2, 3].publisher },
        CaseBuilder("(0..<6).publisher with a failure type") { _ in
          Publishers.Sequence<Range<Int>, ConformanceError>(sequence: 0..<6)
        },
        CaseBuilder("Publishers.Sequence.dropFirst") { _ in (0..<5).publisher.dropFirst(2) },
        CaseBuilder("Publishers.Sequence.prefix") { _ in (0..<5).publisher.prefix(3) },
        CaseBuilder("Publishers.Sequence.prefix(while:)") { _ in
          (0..<5).publisher.prefix { $0 < 3 }
        },
        CaseBuilder("Publishers.Sequence.drop(while:)") { _ in
          (0..<5).publisher.drop { $0 < 3 }
        },
        CaseBuilder("Publishers.Sequence.replaceNil") { _ in
          [1, nil, 3].publisher.replaceNil(with: 0)
        },
      ]),
    .generic(
      "AnyPublisher",
      [
        CaseBuilder("eraseToAnyPublisher", traits: .passThrough) { env in
          env.ints().eraseToAnyPublisher()
        },
        CaseBuilder("Just.eraseToAnyPublisher") { _ in Just(1).eraseToAnyPublisher() },
      ] + moduleAnyPublishers),
    .generic(
      "PassthroughSubject",
      [CaseBuilder("PassthroughSubject") { env in env.drivenPassthroughSubject() }]),
    .generic(
      "CurrentValueSubject",
      [
        CaseBuilder("CurrentValueSubject", traits: .storesValues, keepsLatest: 1) { env in
          let subject = CurrentValueSubject<TrackedValue, ConformanceError>(
            env.trackedValueOfNextSource(-1))
          env.driveTracked(
            "CurrentValueSubject", keepAlive: subject, canFail: true, send: { subject.send($0) },
            complete: { subject.send(completion: ConformanceEnvironment.completion(for: $0)) })
          return subject
        }
      ]),
    .generic(
      "ReplaySubject",
      [2, 1].map { bufferSize in
        CaseBuilder(
          "ReplaySubject(bufferSize: \(bufferSize))", traits: .storesValues,
          keepsLatest: bufferSize
        ) { env in
          let subject = ReplaySubject<TrackedValue, ConformanceError>(bufferSize: bufferSize)
          subject.send(env.trackedValueOfNextSource(-2))
          subject.send(env.trackedValueOfNextSource(-1))
          env.driveTracked(
            "ReplaySubject", keepAlive: subject, canFail: true, send: { subject.send($0) },
            complete: { subject.send(completion: ConformanceEnvironment.completion(for: $0)) })
          return subject
        }
      }),
  ]

  // MARK: Transforming

  static let transforming: [RegistryEntry] = [
    .generic(
      "Publishers.Map",
      [
        CaseBuilder("map", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().map { canary.pass($0) * 10 }
        },
        CaseBuilder("map.map (fused)", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().map { canary.pass($0) + 1 }.map { $0 * 10 }
        },
        CaseBuilder("replaceNil", traits: .passThrough) { env in
          env.source(value: { $0 == 0 ? nil : $0 }, failure: ConformanceError.init)
            .replaceNil(with: -1)
        },
      ]),
    .generic(
      "Publishers.TryMap",
      [
        CaseBuilder("tryMap") { env in
          let canary = env.canary
          return env.ints().tryMap { value -> Int in
            if canary.pass(value) == 3 { throw ConformanceError(30) }
            return value * 10
          }
        },
        CaseBuilder("tryMap.map (fused)") { env in
          env.ints().tryMap { value -> Int in
            if value == 2 { throw ConformanceError(20) }
            return value
          }.map { $0 + 1 }
        },
      ]),
    .generic(
      "Publishers.MapKeyPath",
      [
        CaseBuilder("map(keyPath)", traits: .passThrough) { env in
          let path: KeyPath<Triple, Int> = \.first
          return env.source(value: Triple.init, failure: ConformanceError.init).map(path)
        }
      ]),
    .generic(
      "Publishers.MapKeyPath2",
      [
        CaseBuilder("map(keyPath, keyPath)", traits: .passThrough) { env in
          env.source(value: Triple.init, failure: ConformanceError.init).map(\.first, \.second)
        }
      ]),
    .generic(
      "Publishers.MapKeyPath3",
      [
        CaseBuilder("map(keyPath, keyPath, keyPath)", traits: .passThrough) { env in
          env.source(value: Triple.init, failure: ConformanceError.init)
            .map(\.first, \.second, \.third)
        }
      ]),
    .generic(
      "Publishers.Scan",
      [
        CaseBuilder("scan") { env in
          let canary = env.canary
          return env.ints().scan(100) { canary.pass($0) + $1 }
        }
      ]),
    .generic(
      "Publishers.TryScan",
      [
        CaseBuilder("tryScan") { env in
          let canary = env.canary
          return env.ints().tryScan(0) { total, value in
            if canary.pass(value) == 3 { throw ConformanceError(31) }
            return total + value
          }
        }
      ]),
    .generic(
      "Publishers.MapError",
      [
        CaseBuilder("mapError", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().mapError { ConformanceError(canary.pass($0.id) + 100) }
        }
      ]),
    .generic(
      "Publishers.SetFailureType",
      [
        CaseBuilder("setFailureType", traits: .passThrough) { env in
          env.neverFailingInts().setFailureType(to: ConformanceError.self)
        },
        CaseBuilder("setFailureType.setFailureType", traits: .passThrough) { env in
          env.neverFailingInts().setFailureType(to: ConformanceError.self)
            .setFailureType(to: CocoaError.self)
        },
      ]),
    .generic(
      "Publishers.Encode",
      [CaseBuilder("encode") { env in env.ints().encode(encoder: JSONEncoder()) }]),
    .generic(
      "Publishers.Decode",
      [
        CaseBuilder("decode") { env in
          // 3 is not valid JSON for an Int: decoding it fails the stream.
          env.source(
            value: { Data(($0 == 3 ? "three" : "\($0)").utf8) }, failure: ConformanceError.init
          )
          .decode(type: Int.self, decoder: JSONDecoder())
        }
      ]),
  ]

  // MARK: Filtering

  static let filtering: [RegistryEntry] = [
    .generic(
      "Publishers.Filter",
      [
        CaseBuilder("filter", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().filter { canary.pass($0) != 1 }
        },
        CaseBuilder("filter.filter (fused)", traits: .passThrough) { env in
          env.ints().filter { $0 != 1 }.filter { $0 != 2 }
        },
      ]),
    .generic(
      "Publishers.TryFilter",
      [
        CaseBuilder("tryFilter") { env in
          let canary = env.canary
          return env.ints().tryFilter { value in
            if canary.pass(value) == 3 { throw ConformanceError(32) }
            return value != 1
          }
        }
      ]),
    .generic(
      "Publishers.CompactMap",
      [
        CaseBuilder("compactMap", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().compactMap { canary.pass($0) == 1 ? nil : $0 }
        },
        CaseBuilder("compactMap.map (fused)", traits: .passThrough) { env in
          env.ints().compactMap { $0 == 1 ? nil : $0 }.map { $0 * 2 }
        },
        CaseBuilder("compactMap.compactMap (fused)", traits: .passThrough) { env in
          env.ints().compactMap { $0 == 1 ? nil : $0 }.compactMap { $0 == 2 ? nil : $0 }
        },
      ]),
    .generic(
      "Publishers.TryCompactMap",
      [
        CaseBuilder("tryCompactMap") { env in
          let canary = env.canary
          return env.ints().tryCompactMap { value -> Int? in
            if canary.pass(value) == 3 { throw ConformanceError(33) }
            return value == 1 ? nil : value
          }
        }
      ]),
    .generic(
      "Publishers.RemoveDuplicates",
      [
        CaseBuilder("removeDuplicates") { env in env.ints().removeDuplicates() },
        CaseBuilder("removeDuplicates(by:)") { env in
          let canary = env.canary
          return env.ints().removeDuplicates { canary.pass($0) % 2 == $1 % 2 }
        },
      ]),
    .generic(
      "Publishers.TryRemoveDuplicates",
      [
        CaseBuilder("tryRemoveDuplicates(by:)") { env in
          let canary = env.canary
          return env.ints().tryRemoveDuplicates { previous, next in
            if canary.pass(next) == 3 { throw ConformanceError(34) }
            return previous == next
          }
        }
      ]),
    .generic(
      "Publishers.Drop",
      [
        CaseBuilder("dropFirst()") { env in env.ints().dropFirst() },
        CaseBuilder("dropFirst(3)") { env in env.ints().dropFirst(3) },
      ]),
    .generic(
      "Publishers.DropWhile",
      [
        CaseBuilder("drop(while:)") { env in
          let canary = env.canary
          return env.ints().drop { canary.pass($0) < 2 }
        }
      ]),
    .generic(
      "Publishers.TryDropWhile",
      [
        CaseBuilder("tryDrop(while:)") { env in
          let canary = env.canary
          return env.ints().tryDrop { value in
            if canary.pass(value) == 3 { throw ConformanceError(35) }
            return value < 2
          }
        }
      ]),
    .generic(
      "Publishers.PrefixWhile",
      [
        CaseBuilder("prefix(while:)") { env in
          let canary = env.canary
          return env.ints().prefix { canary.pass($0) < 3 }
        }
      ]),
    .generic(
      "Publishers.TryPrefixWhile",
      [
        CaseBuilder("tryPrefix(while:)") { env in
          let canary = env.canary
          return env.ints().tryPrefix { value in
            if canary.pass(value) == 2 { throw ConformanceError(36) }
            return value < 3
          }
        }
      ]),
    .generic(
      "Publishers.Output",
      [
        CaseBuilder("output(at: 1)") { env in env.ints().output(at: 1) },
        CaseBuilder("output(in: 1..<3)") { env in env.ints().output(in: 1..<3) },
        CaseBuilder("output(in: 2...)") { env in env.ints().output(in: 2...) },
        CaseBuilder("prefix(2)") { env in env.ints().prefix(2) },
        CaseBuilder("prefix(0)") { env in env.ints().prefix(0) },
      ]),
    .generic(
      "Publishers.IgnoreOutput",
      [CaseBuilder("ignoreOutput", traits: .passThrough) { env in env.ints().ignoreOutput() }]),
    .generic(
      "Publishers.ReplaceEmpty",
      [CaseBuilder("replaceEmpty(with:)") { env in env.ints().replaceEmpty(with: -1) }]),
    .generic(
      "Publishers.ReplaceError",
      [CaseBuilder("replaceError(with:)") { env in env.ints().replaceError(with: -1) }]),
  ]

  // MARK: Reducing

  static let reducing: [RegistryEntry] = [
    .generic(
      "Publishers.Reduce",
      [
        CaseBuilder("reduce") { env in
          let canary = env.canary
          return env.ints().reduce(0) { canary.pass($0) + $1 }
        }
      ]),
    .generic(
      "Publishers.TryReduce",
      [
        CaseBuilder("tryReduce") { env in
          let canary = env.canary
          return env.ints().tryReduce(0) { total, value in
            if canary.pass(value) == 3 { throw ConformanceError(37) }
            return total + value
          }
        }
      ]),
    .generic("Publishers.Collect", [CaseBuilder("collect()") { env in env.ints().collect() }]),
    .generic(
      "Publishers.CollectByCount",
      [
        CaseBuilder("collect(1)") { env in env.ints().collect(1) },
        CaseBuilder("collect(2)") { env in env.ints().collect(2) },
        CaseBuilder("collect(3)") { env in env.ints().collect(3) },
      ]),
    .generic("Publishers.Count", [CaseBuilder("count()") { env in env.ints().count() }]),
    .generic(
      "Publishers.Comparison",
      [
        CaseBuilder("min()") { env in env.ints().min() },
        CaseBuilder("max()") { env in env.ints().max() },
        CaseBuilder("max(by:)") { env in
          let canary = env.canary
          return env.ints().max { canary.pass($0) % 3 < $1 % 3 }
        },
      ]),
    .generic(
      "Publishers.TryComparison",
      [
        CaseBuilder("tryMin(by:)") { env in
          let canary = env.canary
          return env.ints().tryMin { first, second in
            if canary.pass(second) == 3 { throw ConformanceError(38) }
            return first < second
          }
        },
        CaseBuilder("tryMax(by:)") { env in
          env.ints().tryMax { first, second in
            if second == 2 { throw ConformanceError(39) }
            return first < second
          }
        },
      ]),
    .generic("Publishers.Contains", [CaseBuilder("contains(2)") { env in env.ints().contains(2) }]),
    .generic(
      "Publishers.ContainsWhere",
      [
        CaseBuilder("contains(where:)") { env in
          let canary = env.canary
          return env.ints().contains { canary.pass($0) == 3 }
        }
      ]),
    .generic(
      "Publishers.TryContainsWhere",
      [
        CaseBuilder("tryContains(where:)") { env in
          let canary = env.canary
          return env.ints().tryContains { value in
            if canary.pass(value) == 3 { throw ConformanceError(40) }
            return value == 2
          }
        }
      ]),
    .generic(
      "Publishers.AllSatisfy",
      [
        CaseBuilder("allSatisfy") { env in
          let canary = env.canary
          return env.ints().allSatisfy { canary.pass($0) < 3 }
        }
      ]),
    .generic(
      "Publishers.TryAllSatisfy",
      [
        CaseBuilder("tryAllSatisfy") { env in
          let canary = env.canary
          return env.ints().tryAllSatisfy { value in
            if canary.pass(value) == 3 { throw ConformanceError(41) }
            return value != 2
          }
        }
      ]),
    .generic("Publishers.First", [CaseBuilder("first()") { env in env.ints().first() }]),
    .generic(
      "Publishers.FirstWhere",
      [
        CaseBuilder("first(where:)") { env in
          let canary = env.canary
          return env.ints().first { canary.pass($0) >= 2 }
        }
      ]),
    .generic(
      "Publishers.TryFirstWhere",
      [
        CaseBuilder("tryFirst(where:)") { env in
          let canary = env.canary
          return env.ints().tryFirst { value in
            if canary.pass(value) == 3 { throw ConformanceError(42) }
            return value == 2
          }
        }
      ]),
    .generic("Publishers.Last", [CaseBuilder("last()") { env in env.ints().last() }]),
    .generic(
      "Publishers.LastWhere",
      [
        CaseBuilder("last(where:)") { env in
          let canary = env.canary
          return env.ints().last { canary.pass($0) != 2 }
        }
      ]),
    .generic(
      "Publishers.TryLastWhere",
      [
        CaseBuilder("tryLast(where:)") { env in
          let canary = env.canary
          return env.ints().tryLast { value in
            if canary.pass(value) == 3 { throw ConformanceError(43) }
            return value != 2
          }
        }
      ]),
  ]

  // MARK: Side effects and debugging

  static let others: [RegistryEntry] = [
    .generic(
      "Publishers.HandleEvents",
      [
        CaseBuilder("handleEvents") { env in
          let canary = env.canary
          return env.ints().handleEvents(
            receiveSubscription: { _ in _ = canary }, receiveOutput: { _ in _ = canary },
            receiveCompletion: { _ in _ = canary }, receiveCancel: { _ = canary },
            receiveRequest: { _ in _ = canary })
        }
      ]),
    .generic(
      "Publishers.Print",
      [
        CaseBuilder("print") { env in
          env.ints().print("conformance", to: DiscardingStream(canary: env.canary))
        }
      ]),
    .generic(
      "Publishers.Breakpoint",
      [
        CaseBuilder("breakpoint (never stopping)", traits: .passThrough) { env in
          let canary = env.canary
          return env.ints().breakpoint(
            receiveSubscription: { _ in canary.pass(false) }, receiveOutput: { _ in false },
            receiveCompletion: { _ in false })
        },
        // breakpointOnError stops in the debugger on a failure: fed by an upstream that never
        // fails.
        CaseBuilder("breakpointOnError", traits: .passThrough) { env in
          env.intsThatNeverFail().breakpointOnError()
        },
      ]),
    .generic(
      "Publishers.AssertNoFailure",
      [
        // A failure stops the program (checked by an exit test in MisuseTests).
        CaseBuilder("assertNoFailure", traits: .passThrough) { env in
          env.intsThatNeverFail().assertNoFailure()
        }
      ]),
  ]

  // MARK: Properties (CombineEx)

  static let properties: [RegistryEntry] =
    [
      .generic(
        "MutableProperty",
        [
          CaseBuilder("MutableProperty", traits: .neverCompletes) { env in
            let property = MutableProperty(-1)
            env.drive(
              "MutableProperty", keepAlive: property, canFail: false,
              send: { property.value = $0 }, complete: nil)
            return property
          }
        ]),
      .generic(
        "Property",
        [
          CaseBuilder("Property(value:)") { _ in Property(value: 5) },
          CaseBuilder("Property(mutableProperty)", traits: .neverCompletes) { env in
            let property = MutableProperty(-1)
            env.drive(
              "MutableProperty", keepAlive: property, canFail: false,
              send: { property.value = $0 }, complete: nil)
            return Property(property)
          },
          CaseBuilder("Property(initial:then:)", traits: .keepsUpstream) { env in
            let property = Property(initial: -1, then: env.neverFailingInts())
            env.retain(property)
            return property
          },
        ] + propertyCompositions + liftedProperties + moduleProperties),
    ] + mirroredProperties + persistentProperties
}

/// A value with three key paths, for the key-path maps.
struct Triple: CustomStringConvertible {
  let first: Int
  let second: Int
  let third: Int

  init(_ value: Int) {
    first = value
    second = value * 10
    third = value * 100
  }

  var description: String { "(\(first),\(second),\(third))" }
}

/// A text stream that discards what `print` writes, and captures a canary.
struct DiscardingStream: TextOutputStream {
  let canary: Canary
  mutating func write(_ string: String) { _ = canary }
}
