"""Interests as researchers write them, two sentences per arXiv category (and keywords, three
phrases each), written by hand for the relevance benchmark. Deliberately not the arXiv category
descriptions: a person names the topics and methods of their own work, not a category's bounds."""

from __future__ import annotations

from bench import holdout

INTERESTS = {
    "cs.CV": (
        "I work on visual recognition from images and video: object detection, segmentation and "
        "tracking with deep networks. Lately I am interested in vision-language models, "
        "diffusion-based image generation and reconstructing 3D scenes from photos."
    ),
    "cs.CL": (
        "My research is on natural language processing with large language models: how they "
        "reason, follow instructions and translate between languages. I care about evaluation "
        "benchmarks, hallucination, retrieval-augmented generation and low-resource languages."
    ),
    "cs.AI": (
        "I build autonomous agents on top of large language models that plan, use tools and "
        "reason over several steps. I am interested in multi-agent collaboration, knowledge "
        "representation and making these systems safe and reliable in real decision making."
    ),
    "cs.LG": (
        "I do machine learning research on how neural networks are trained: optimization, "
        "generalization and representation learning. I am especially interested in reinforcement "
        "learning, graph neural networks and theory for why deep models work."
    ),
    "cs.GR": (
        "I work in computer graphics: rendering, geometry processing and the animation of "
        "characters and scenes. Recent projects use neural fields and Gaussian splatting for novel "
        "view synthesis, mesh generation and physically based simulation."
    ),
    "astro-ph.GA": (
        "I study how galaxies form and evolve: star formation, gas accretion, stellar populations "
        "and the feedback of supermassive black holes. I use spectroscopic surveys, JWST "
        "observations of high-redshift galaxies and simulations of the Milky Way and its "
        "satellites."
    ),
    "astro-ph.CO": (
        "I work on cosmology: the expansion history of the universe, dark energy, dark matter and "
        "inflation. I constrain cosmological parameters with the cosmic microwave background, "
        "baryon acoustic oscillations, weak lensing and large-scale structure surveys."
    ),
    "astro-ph.IM": (
        "I develop instruments and data pipelines for astronomy: detectors, calibration and the "
        "software that turns raw telescope data into catalogues. I am interested in radio "
        "interferometers, spectrographs and machine learning for classifying survey transients."
    ),
    "astro-ph.HE": (
        "I study high-energy astrophysics: gamma-ray bursts, pulsars, neutron stars and accreting "
        "black holes, and the cosmic rays and neutrinos they produce. I model relativistic jets "
        "and shocks and interpret X-ray and gamma-ray observations."
    ),
    "astro-ph.SR": (
        "I study stars: stellar structure and evolution, asteroseismology, binary stars and the "
        "magnetic activity of the Sun. I model stellar interiors and atmospheres and compare them "
        "with spectroscopy and photometry of variable stars."
    ),
    "astro-ph.EP": (
        "I work on exoplanets and planetary systems: finding planets with transits and radial "
        "velocities and characterizing their atmospheres. I also model protoplanetary disks, "
        "planet formation and the dynamics of asteroids and comets in the solar system."
    ),
    "gr-qc": (
        "My research is in general relativity and gravitation: black hole spacetimes, "
        "gravitational waves and tests of modified gravity. I work on waveform models for binary "
        "mergers, quasinormal modes and quantum aspects of gravity."
    ),
    "hep-ph": (
        "I work in particle physics phenomenology: physics beyond the Standard Model, dark matter "
        "candidates, neutrino masses and the Higgs sector. I compute cross sections and decay "
        "rates and confront models with collider data from the LHC and flavour experiments."
    ),
    "cond-mat.mtrl-sci": (
        "I compute and design materials from first principles: density functional theory for "
        "electronic structure, defects, phonons and magnetism in crystals and thin films. Recently "
        "I add machine-learned interatomic potentials to screen alloys, battery materials and 2D "
        "materials."
    ),
    "physics.chem-ph": (
        "I am a computational chemist working on electronic structure methods and molecular "
        "dynamics for reactions in solution and at surfaces. I develop quantum chemistry "
        "approximations and machine-learned potential energy surfaces for spectroscopy and "
        "catalysis."
    ),
}

# A second author, for the reporting categories (bench/tasks.py): one terse keyword-like
# line, and one long paragraph, in another voice than the texts above. Written from what each
# field is about, without looking at any reporting paper or score.
TERSE = {
    "cs.CL": "LLMs, machine translation, tokenization, instruction tuning, NLP evaluation",
    "cs.AI": "LLM agents; planning; tool use; multi-agent systems; AI alignment",
    "astro-ph.CO": "cosmology, dark energy, CMB, galaxy clustering, weak lensing, Hubble tension",
    "astro-ph.IM": "telescope instrumentation, detectors, survey pipelines, calibration",
    "astro-ph.HE": "pulsars, gamma-ray bursts, X-ray binaries, cosmic rays, neutrinos, AGN jets",
    "astro-ph.SR": "stellar evolution; asteroseismology; solar flares; binaries; stellar winds",
    "astro-ph.EP": "exoplanets, transits, planetary atmospheres, planet formation, debris disks",
    "gr-qc": "black holes, gravitational waves, numerical relativity, modified gravity",
    "hep-ph": "BSM phenomenology, LHC, neutrino physics, dark matter models, QCD",
    "quant-ph": "quantum computing, qubits, error correction, entanglement, quantum algorithms",
}

LONG = {
    "cs.CL": (
        "Our group studies how language technology behaves once it leaves the lab. We train and "
        "adapt large language models, and we want to know when their answers can be trusted: "
        "factuality, calibration and the way prompts, decoding and alignment with human "
        "preferences change what a model says. We also build corpora and tools for languages "
        "with few resources, look at speech and text translation, and keep an eye on how "
        "benchmarks are built, contaminated and gamed, since most claims in the field rest on "
        "them. Papers on reasoning traces, long contexts and multilingual tokenizers are "
        "welcome too."
    ),
    "cs.AI": (
        "I am interested in systems that act rather than only predict. Most of my reading is "
        "about agents built around language models: how they break a goal into steps, call "
        "tools and external APIs, remember what they did and recover from mistakes, and how "
        "several of them can share a task. I also follow work on search and planning in the "
        "classical sense, on knowledge graphs and symbolic reasoning combined with learning, and "
        "on questions of safety: how to evaluate such agents, keep them aligned with what their "
        "users want, and explain their decisions."
    ),
    "astro-ph.CO": (
        "I try to learn what the universe is made of from how it grew. That means the cosmic "
        "microwave background and its polarization, the clustering of galaxies and the baryon "
        "acoustic feature in spectroscopic surveys such as DESI and Euclid, cosmic shear from "
        "weak gravitational lensing, and the tension between local and early-universe "
        "measurements of the Hubble constant. On the theory side I read about dark energy "
        "beyond a cosmological constant, the nature of dark matter, primordial non-Gaussianity "
        "and inflation, and the simulations and emulators that connect them to data."
    ),
    "astro-ph.IM": (
        "I build the things that astronomers take for granted: cameras, receivers, "
        "spectrographs and the software around them. I care about detector noise and "
        "calibration, adaptive optics, the design of radio arrays and interferometric imaging, "
        "and the data-reduction pipelines that large surveys depend on. Increasingly this "
        "includes machine learning for finding and classifying transients, for cleaning "
        "radio-frequency interference and for handling the data volumes of the next generation "
        "of telescopes, as well as the archives and simulations used to plan observations."
    ),
    "astro-ph.HE": (
        "My work is about the most energetic objects in the sky. I look at neutron stars and "
        "pulsars, magnetars and fast radio bursts, accretion onto stellar-mass and supermassive "
        "black holes, and the relativistic jets and outflows that come with it. Gamma-ray "
        "bursts and their afterglows, supernova remnants, and the acceleration of cosmic rays "
        "in shocks are close to my heart, as are the high-energy neutrinos seen by IceCube and "
        "the X-ray and gamma-ray telescopes that observe these sources."
    ),
    "astro-ph.SR": (
        "I am a stellar astrophysicist. I want to understand how stars are built and how they "
        "change over their lives, from young stars and their rotation to red giants, white "
        "dwarfs and the last stages before a supernova. Oscillations measured by space "
        "photometry are one of my main tools, together with high-resolution spectra for "
        "chemical abundances. I also follow the Sun: its magnetic field, sunspots, flares and "
        "coronal mass ejections, and the winds of massive stars and interacting binaries."
    ),
    "astro-ph.EP": (
        "I study worlds around other stars and the history of our own solar system. I follow "
        "detections of exoplanets by transits, radial velocities and direct imaging, and above "
        "all the characterization of their atmospheres with JWST transmission and emission "
        "spectra. I am just as interested in how planets form: dust growth and gaps in "
        "protoplanetary disks, migration and orbital dynamics, and the small bodies, such as "
        "asteroids, comets and Kuiper belt objects, that remember the early solar system."
    ),
    "gr-qc": (
        "I work on gravity as Einstein described it and on the ways it might fail. My topics "
        "are black holes and their perturbations, the ringdown and quasinormal modes seen in "
        "gravitational-wave signals, numerical simulations of compact binary mergers and the "
        "waveform templates used by LIGO, Virgo and future detectors like LISA. I also read "
        "about scalar-tensor and other modified theories, cosmological solutions, wormholes "
        "and horizons, and attempts to bring quantum effects into the picture."
    ),
    "hep-ph": (
        "I am a phenomenologist looking for what lies beyond the Standard Model. I read about "
        "searches at the Large Hadron Collider, precision calculations in QCD and electroweak "
        "theory, and the properties of the Higgs boson and the top quark. Neutrino masses and "
        "oscillations, flavour anomalies in B-meson decays, axions and other dark matter "
        "candidates, and the early-universe consequences of new particles, such as "
        "baryogenesis and phase transitions, are the topics I follow most closely."
    ),
    "quant-ph": (
        "I follow quantum information science from the hardware to the algorithms. On the "
        "hardware side: superconducting qubits, trapped ions, neutral atoms and photonic "
        "platforms, and the noise and decoherence that limit them. On the theory side: quantum "
        "error correction and fault tolerance, entanglement and its measures, quantum "
        "communication and key distribution, and the algorithms, variational or not, for which "
        "a quantum computer might actually be useful, including quantum simulation of physical "
        "systems."
    ),
}

# The same second author for the tuning categories, so that ideas about interests texts are
# chosen on texts of both voices too (written from what each field is about, before any run).
TUNE_TERSE = {
    "cs.CV": "object detection, segmentation, vision transformers, video understanding, 3D vision",
    "cs.LG": "optimization; generalization; reinforcement learning; graph neural networks",
    "cond-mat.mtrl-sci": "DFT, crystal structure prediction, batteries, 2D materials, alloys",
    "physics.chem-ph": "quantum chemistry, molecular dynamics, force fields, reaction kinetics",
    "astro-ph.GA": "galaxy evolution, star formation, ISM, Milky Way, high-redshift galaxies",
    "cs.GR": "rendering, Gaussian splatting, meshes, character animation, physics simulation",
    "eess.IV": "medical image segmentation, MRI reconstruction, image compression, denoising",
    "cs.RO": "robot manipulation, motion planning, SLAM, legged locomotion, imitation learning",
}

TUNE_LONG = {
    "cs.CV": (
        "Our lab teaches machines to see. We read papers on recognizing and localizing objects, "
        "on pixel-level segmentation and on following things through video, and we keep track "
        "of how transformer backbones and self-supervised pretraining change these tasks. We "
        "also care about what happens outside curated benchmarks: domain shift, few labels, "
        "open vocabularies from image-text models, and recovering depth, pose and shape of "
        "scenes from ordinary cameras. Generative models of images and video interest us when "
        "they help perception or give controllable editing."
    ),
    "cs.LG": (
        "I want to understand why learning algorithms work and make them work better. That "
        "means stochastic optimization and its step sizes, generalization and overfitting in "
        "overparameterized networks, and what representations a model learns. I also read "
        "about agents that learn from reward, offline data and exploration, about learning on "
        "graphs and other structured data, and about making training efficient, robust to "
        "distribution shift and respectful of privacy, as in federated settings."
    ),
    "cond-mat.mtrl-sci": (
        "My group designs and understands materials from first principles and from data. We "
        "run density functional theory on defects, interfaces and phase stability, and we use "
        "machine-learned interatomic potentials to reach larger systems and longer times. I "
        "follow work on battery electrodes and electrolytes, catalysts, two-dimensional and "
        "magnetic materials, and on how microstructure and processing set the mechanical "
        "properties of alloys, as well as high-throughput screening and generative models that "
        "propose new crystal structures."
    ),
    "physics.chem-ph": (
        "I work where physics meets chemistry. I am interested in electronic structure methods, "
        "from coupled cluster to density functional approximations, in excited states and "
        "spectroscopy, and in how molecules move: molecular dynamics, free energy calculations "
        "and the kinetics of reactions in gas, liquid and on surfaces. Neural network "
        "potentials and other learned models of energies and forces are a growing part of my "
        "reading, together with solvation, hydrogen bonding and nonadiabatic dynamics."
    ),
    "astro-ph.GA": (
        "I want to know how the galaxies we see came to be. I read about the birth of stars in "
        "molecular clouds, the cycling of gas between galaxies and their surroundings, and how "
        "black holes at their centres shape them. Our own Galaxy matters to me too: its "
        "stellar streams, its chemical history and its dark matter halo from Gaia data. At the "
        "other end, I follow the first galaxies seen by JWST, dust and emission lines at high "
        "redshift, and cosmological simulations that try to reproduce all of this."
    ),
    "cs.GR": (
        "Our group makes images and motion with computers. We follow physically based rendering "
        "and its acceleration, neural scene representations such as radiance fields and "
        "Gaussian splats, and how they are captured, edited and streamed. Geometry processing "
        "is the other half: meshes, point clouds, parameterization and shape generation. We "
        "also read about animating characters and faces, cloth and fluid simulation, and tools "
        "that let artists control what the models produce."
    ),
    "eess.IV": (
        "I work on images as signals to be restored, compressed and analysed. Much of my "
        "reading is medical: reconstructing MRI and CT from undersampled measurements, "
        "segmenting organs and lesions, and registration between scans. I also follow learned "
        "image and video compression, super-resolution, denoising and deblurring, hyperspectral "
        "and remote sensing imagery, and the question of how to judge image quality in a way "
        "that agrees with what people see."
    ),
    "cs.RO": (
        "I build robots that act in the physical world. I read about grasping and dexterous "
        "manipulation, about planning motions around obstacles and controlling legged and "
        "aerial robots, and about localization and mapping from cameras and lidar. Learning is "
        "central: imitation from demonstrations, reinforcement learning with sim-to-real "
        "transfer, and large vision-language-action models that follow instructions. Safety, "
        "human-robot interaction and autonomous driving are part of it too."
    ),
}


# The small fields of the tune split's months (bench/tasks.py SMALL): what ideas for fields of a
# few dozen papers a month in a pool of every field are chosen on, so that the holdout split's
# small fields stay unseen. Written 2026-12-03, before the split was run.
SMALL_FIRST = {
    "cs.IR": (
        "I work on information retrieval and recommender systems: ranking documents for a query, "
        "dense and sparse retrieval, and learning from clicks. Recently I study recommendation "
        "with large language models, sequential recommendation and retrieval for RAG."
    ),
    "cs.CR": (
        "I do security and privacy research: attacks on machine learning models such as "
        "jailbreaks, backdoors and adversarial examples, and the defenses against them. I also "
        "follow differential privacy, malware and intrusion detection, and applied cryptography."
    ),
    "cs.CY": (
        "I study technology and society: the fairness, accountability and governance of AI "
        "systems and their effects on work, education and public life. I read about AI policy "
        "and regulation, misinformation on social media, and surveys of how people use AI."
    ),
    "cs.SE": (
        "I work in software engineering: code generation and program repair with large language "
        "models, software testing and the analysis of programs. I am interested in how "
        "developers use coding assistants and in benchmarks of code quality."
    ),
}


# Keywords as a reader lists them in `keywords`: three phrases per category, written for both
# splits at once before any was measured; nothing is chosen on them.
KEYWORDS = {
    "cs.CV": ("object detection", "semantic segmentation", "image generation"),
    "cs.LG": ("reinforcement learning", "graph neural networks", "generalization bounds"),
    "cond-mat.mtrl-sci": ("density functional theory", "thin films", "phonon"),
    "physics.chem-ph": ("molecular dynamics", "potential energy surface", "excited states"),
    "astro-ph.GA": ("galaxy evolution", "star formation", "interstellar medium"),
    "cs.GR": ("rendering", "mesh", "character animation"),
    "eess.IV": ("image denoising", "MRI reconstruction", "super-resolution"),
    "cs.RO": ("robot manipulation", "motion planning", "legged locomotion"),
    "cs.CL": ("large language models", "machine translation", "question answering"),
    "cs.AI": ("autonomous agents", "multi-agent systems", "planning"),
    "astro-ph.CO": ("cosmic microwave background", "dark energy", "large-scale structure"),
    "astro-ph.IM": ("telescope", "instrument calibration", "detector"),
    "astro-ph.HE": ("gamma-ray bursts", "neutron stars", "cosmic rays"),
    "astro-ph.SR": ("stellar oscillations", "solar flares", "stellar winds"),
    "astro-ph.EP": ("exoplanets", "protoplanetary disks", "planet formation"),
    "gr-qc": ("gravitational waves", "black hole", "general relativity"),
    "hep-ph": ("dark matter", "Standard Model", "collider phenomenology"),
    "quant-ph": ("quantum error correction", "entanglement", "quantum circuits"),
    "cs.IR": ("recommender systems", "dense retrieval", "learning to rank"),
    "cs.CR": ("adversarial attacks", "differential privacy", "malware detection"),
    "cs.CY": ("AI governance", "algorithmic fairness", "misinformation"),
    "cs.SE": ("code generation", "program repair", "software testing"),
    **holdout.KEYWORDS,
}
