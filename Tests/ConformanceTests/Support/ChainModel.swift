import CombineEx

/// A finite stream as the reference model sees it: values, then how it ended so far.
struct ModelStream: Equatable, CustomStringConvertible {
  var values: [Int]
  var end: ScriptEnd

  var description: String { "\(values)\(end)" }

  /// The same stream with other values and the same end.
  func with(_ values: [Int]) -> ModelStream { ModelStream(values: values, end: end) }

  /// A stream that ends early with `.finished` after `values`.
  static func finished(_ values: [Int]) -> ModelStream {
    ModelStream(values: values, end: .finished)
  }
}

/// One synchronous operator of a random chain: how to apply it to a publisher, and what it does
/// to a finite stream, computed on arrays (the reference model).
///
/// Every chain is kept at `AnyPublisher<Int, ConformanceError>`: operators that change the
/// output type are followed by a `map` back to `Int` (`collect(n)` encodes each array as
/// `1000 * count + sum`, booleans become 0 or 1), and `try` operators by a `mapError` back to
/// ``ConformanceError``; the model does the same.
struct ChainOperator: CustomStringConvertible {
  typealias Stage = AnyPublisher<Int, ConformanceError>

  let description: String
  let apply: (Stage) -> Stage
  let model: (ModelStream) -> ModelStream

  /// The error a `try` operator of a chain throws.
  static let thrownErrorID = 77

  /// A random operator with random parameters.
  static func random(using generator: inout SeededGenerator) -> ChainOperator {
    let threshold = generator.int(0...3)
    switch generator.int(0...26) {
    case 0:
      let factor = generator.int(1...3)
      let offset = generator.int(-2...2)
      return ChainOperator(
        "map { $0 * \(factor) + \(offset) }",
        { $0.map { $0 * factor + offset }.eraseToAnyPublisher() },
        { $0.with($0.values.map { $0 * factor + offset }) })
    case 1:
      let modulus = generator.int(2...3)
      return ChainOperator(
        "filter { $0 mod \(modulus) != \(threshold % modulus) }",
        { $0.filter { mod($0, modulus) != threshold % modulus }.eraseToAnyPublisher() },
        { $0.with($0.values.filter { mod($0, modulus) != threshold % modulus }) })
    case 2:
      return ChainOperator(
        "compactMap { $0 == \(threshold) ? nil : $0 + 1 }",
        { $0.compactMap { $0 == threshold ? nil : $0 + 1 }.eraseToAnyPublisher() },
        { $0.with($0.values.compactMap { $0 == threshold ? nil : $0 + 1 }) })
    case 3:
      return ChainOperator(
        "scan(0, +)", { $0.scan(0, +).eraseToAnyPublisher() },
        { stream in
          var total = 0
          return stream.with(
            stream.values.map {
              total += $0
              return total
            })
        })
    case 4:
      return ChainOperator(
        "removeDuplicates()", { $0.removeDuplicates().eraseToAnyPublisher() },
        { stream in
          var result: [Int] = []
          for value in stream.values where result.last != value { result.append(value) }
          return stream.with(result)
        })
    case 5:
      let count = generator.int(1...4)
      return ChainOperator(
        "prefix(\(count))", { $0.prefix(count).eraseToAnyPublisher() },
        // As Combine's, it finishes at the element after its range, not with the last one.
        { $0.values.count > count ? .finished(Array($0.values.prefix(count))) : $0 })
    case 6:
      let count = generator.int(0...3)
      return ChainOperator(
        "dropFirst(\(count))", { $0.dropFirst(count).eraseToAnyPublisher() },
        { $0.with(Array($0.values.dropFirst(count))) })
    case 7:
      let lower = generator.int(0...2)
      let upper = lower + generator.int(1...3)
      return ChainOperator(
        "output(in: \(lower)..<\(upper))",
        { $0.output(in: lower..<upper).eraseToAnyPublisher() },
        { stream in
          let slice = Array(stream.values.dropFirst(lower).prefix(upper - lower))
          return stream.values.count > upper ? .finished(slice) : stream.with(slice)
        })
    case 8:
      let count = generator.int(1...3)
      return ChainOperator(
        "collect(\(count)).map(encode)",
        { $0.collect(count).map(encode).eraseToAnyPublisher() },
        { stream in
          var arrays = stride(from: 0, to: stream.values.count, by: count).map {
            Array(stream.values[$0..<min($0 + count, stream.values.count)])
          }
          // A partial array is published on `.finished` only.
          if arrays.last.map({ $0.count < count }) == true, stream.end != .finished {
            arrays.removeLast()
          }
          return stream.with(arrays.map(encode))
        })
    case 9:
      return ChainOperator(
        "first()", { $0.first().eraseToAnyPublisher() },
        { $0.values.first.map { .finished([$0]) } ?? $0 })
    case 10:
      return ChainOperator(
        "last()", { $0.last().eraseToAnyPublisher() },
        { $0.atEnd { values in values.last.map { [$0] } ?? [] } })
    case 11:
      return ChainOperator(
        "reduce(0, +)", { $0.reduce(0, +).eraseToAnyPublisher() },
        { $0.atEnd { [$0.reduce(0, +)] } })
    case 12:
      return ChainOperator(
        "count()", { $0.count().eraseToAnyPublisher() }, { $0.atEnd { [$0.count] } })
    case 13:
      return ChainOperator(
        "replaceEmpty(with: 42)", { $0.replaceEmpty(with: 42).eraseToAnyPublisher() },
        { $0.end == .finished && $0.values.isEmpty ? .finished([42]) : $0 })
    case 14:
      return ChainOperator(
        "ignoreOutput()",
        { $0.ignoreOutput().map(absurd).eraseToAnyPublisher() },
        { $0.with([]) })
    case 15:
      return ChainOperator(
        "tryMap { throw if $0 == \(threshold) }",
        { stage in
          stage.tryMap { value -> Int in
            if value == threshold { throw ConformanceError(thrownErrorID) }
            return value
          }
          .mapError { ($0 as? ConformanceError) ?? ConformanceError(-1) }
          .eraseToAnyPublisher()
        },
        { stream in
          guard let index = stream.values.firstIndex(of: threshold) else { return stream }
          return ModelStream(
            values: Array(stream.values.prefix(index)), end: .failure(thrownErrorID))
        })
    case 16:
      return ChainOperator(
        "first(where: $0 > \(threshold))",
        { $0.first { $0 > threshold }.eraseToAnyPublisher() },
        { stream in
          stream.values.first { $0 > threshold }.map { .finished([$0]) } ?? stream.with([])
        }
      )
    case 17:
      return ChainOperator(
        "last(where: $0 > \(threshold))",
        { $0.last { $0 > threshold }.eraseToAnyPublisher() },
        { $0.atEnd { values in values.last { $0 > threshold }.map { [$0] } ?? [] } })
    case 18:
      return ChainOperator(
        "contains(\(threshold)) as 0/1",
        { $0.contains(threshold).map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
        { stream in
          stream.values.contains(threshold) ? .finished([1]) : stream.atEnd { _ in [0] }
        })
    case 19:
      return ChainOperator(
        "allSatisfy { $0 < \(threshold + 1) } as 0/1",
        { $0.allSatisfy { $0 < threshold + 1 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() },
        { stream in
          stream.values.allSatisfy { $0 < threshold + 1 }
            ? stream.atEnd { _ in [1] } : .finished([0])
        })
    case 20:
      return ChainOperator(
        "min()", { $0.min().eraseToAnyPublisher() },
        { $0.atEnd { values in values.min().map { [$0] } ?? [] } })
    case 21:
      return ChainOperator(
        "max()", { $0.max().eraseToAnyPublisher() },
        { $0.atEnd { values in values.max().map { [$0] } ?? [] } })
    case 22:
      return ChainOperator(
        "drop(while: $0 < \(threshold))",
        { $0.drop { $0 < threshold }.eraseToAnyPublisher() },
        { $0.with(Array($0.values.drop { $0 < threshold })) })
    case 23:
      return ChainOperator(
        "prefix(while: $0 < \(threshold + 1))",
        { $0.prefix { $0 < threshold + 1 }.eraseToAnyPublisher() },
        { stream in
          let kept = Array(stream.values.prefix { $0 < threshold + 1 })
          return kept.count < stream.values.count ? .finished(kept) : stream
        })
    case 24:
      return ChainOperator(
        "replaceError(with: -7).setFailureType",
        {
          $0.replaceError(with: -7).setFailureType(to: ConformanceError.self)
            .eraseToAnyPublisher()
        },
        { stream in
          guard case .failure = stream.end else { return stream }
          return .finished(stream.values + [-7])
        })
    case 25:
      return ChainOperator(
        "handleEvents()",
        { $0.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher() }, { $0 })
    default:
      return ChainOperator(
        "mapError { E(id + 1) }",
        { $0.mapError { ConformanceError($0.id + 1) }.eraseToAnyPublisher() },
        { stream in
          guard case .failure(let id) = stream.end else { return stream }
          return ModelStream(values: stream.values, end: .failure(id + 1))
        })
    }
  }

  init(
    _ description: String, _ apply: @escaping (Stage) -> Stage,
    _ model: @escaping (ModelStream) -> ModelStream
  ) {
    self.description = description
    self.apply = apply
    self.model = model
  }
}

extension ModelStream {
  /// What a reducing operator makes of the stream: `result(values)` then `.finished` once the
  /// stream finished, the failure if it failed, nothing while it is open.
  func atEnd(_ result: ([Int]) -> [Int]) -> ModelStream {
    switch end {
    case .finished: .finished(result(values))
    case .failure, .open: ModelStream(values: [], end: end)
    }
  }
}

/// The value `collect(n)` chains publish for an array.
func encode(_ array: [Int]) -> Int { 1000 * array.count + array.reduce(0, +) }

/// The mathematical modulo (never negative).
func mod(_ value: Int, _ modulus: Int) -> Int { ((value % modulus) + modulus) % modulus }

/// Turns the output of `ignoreOutput()` (which never comes) into any type.
func absurd<T>(_ value: Never) -> T {}
